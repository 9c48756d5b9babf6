/** Small Fetch-API helpers shared by the host handler and the emulator. */

/** What the runtime knows about a request beyond the request itself. */
export interface RequestInfo {
  /** The address of the peer that sent it (the socket's remote address), when the runtime knows it. */
  clientIp?: string | null;
  /**
   * The body as the runtime delivers it, read in place of `request.body` (which is then absent):
   * toNodeListener passes Node's own stream, which costs less than a web stream around it. Its
   * iterator's `return` stops reading without closing the connection.
   */
  body?: AsyncIterable<Uint8Array>;
  /**
   * Aborts when the client goes away, read in place of `request.signal` by a handler that reads
   * `info.body`: toNodeListener passes it here, since a signal given to `new Request` costs Node's
   * fetch a second signal that follows it, more CPU than the handler's plan.
   */
  signal?: AbortSignal;
  /** What a framework passes beside the request, ignored: `export const POST = handler` in Next.js passes `{ params }`. */
  [other: string]: unknown;
}

export type FetchHandler = ((request: Request, info?: RequestInfo) => Promise<Response>) & {
  /**
   * True when the handler reads the body from `info.body` and the client's signal from
   * `info.signal` when given: toNodeListener then passes a Request without either (a web stream
   * costs more CPU than the handler's own checks of a send).
   */
  readonly bodyFromInfo?: boolean;
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The text of a Response's body where the code that made it knows it: a JSON answer made here, a
 * service answer read whole by the Node entry's fetch. Whoever reads the body takes it from here
 * (`textOf`) rather than through the body's web stream, whose machinery costs more CPU than the
 * handler's own checks of a send.
 */
const knownText = new WeakMap<Response, string>();

export function withText(response: Response, text: string): Response {
  knownText.set(response, text);
  return response;
}

/** The body as text: the known text once, else read from the stream. */
export function textOf(response: Response): Promise<string> {
  const text = knownText.get(response);
  if (text === undefined || response.bodyUsed) return response.text();
  knownText.delete(response);
  return Promise.resolve(text);
}

/**
 * A service answer read whole, with no Response around it: a fetch that has `[READ_WHOLE]` (the
 * Node entry's) answers the service client this way, since a Response costs a web stream and a
 * Headers that the client, reading the text once, has no use for.
 */
export interface WholeAnswer {
  status: number;
  header(name: string): string | null;
  text: string;
}
export const READ_WHOLE = Symbol.for('verify-widgets.read-whole');
export type ReadWhole = (url: string, init: RequestInit) => Promise<WholeAnswer>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  return withText(new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers } }), text);
}

/** A declared length over `maxBytes` is refused (413) before a byte is read. */
export function refuseDeclaredOver(request: Request, maxBytes: number): void {
  if (Number(request.headers.get('content-length')) > maxBytes) throw new HttpError(413, `The request body must not exceed ${maxBytes} bytes.`);
}

export interface BodyLimits {
  /** Where the bytes come from, when not from `request.body` (RequestInfo.body). */
  source?: AsyncIterable<Uint8Array>;
  maxBytes: number;
  /** The whole body must have arrived by then (408), so a trickle holds nothing for long. */
  timeoutMs?: number;
  /** Deepest nesting of a JSON body, checked as the bytes arrive, before any parse. */
  maxDepth?: number;
}

/**
 * Reads a body as text, refusing it as soon as it passes `maxBytes` (413) — checked against the
 * declared length first, then while streaming, so that a huge body is never buffered or parsed —
 * or its deadline, or (for JSON) its depth.
 */
export async function readCappedText(request: Request, { maxBytes, timeoutMs, maxDepth, source }: BodyLimits): Promise<string> {
  const tooLarge = () => new HttpError(413, `The request body must not exceed ${maxBytes} bytes.`);
  refuseDeclaredOver(request, maxBytes);
  const reader = source?.[Symbol.asyncIterator]() ?? (request.body && chunksOf(request.body));
  if (!reader) return '';
  const depth = maxDepth === undefined ? null : new JsonDepth(maxDepth);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    if (timeoutMs) timer = setTimeout(() => reject(new HttpError(408, 'The request body took too long to arrive.')), timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.next(), expired]);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      if (depth && !depth.feed(value)) throw new HttpError(400, `The request body must not nest deeper than ${maxDepth}.`);
      chunks.push(value);
    }
  } catch (error) {
    await reader.return?.()?.catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(total);
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.byteLength), 0);
  return new TextDecoder().decode(bytes);
}

/** A web stream's chunks, as an iterator whose `return` cancels it (not every runtime's streams are iterable). */
function chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterator<Uint8Array> {
  const reader = stream.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    return: async () => (await reader.cancel(), { done: true, value: undefined }),
  };
}

/** The bodies here are flat objects: a little room, and no more, before depth is an attack. */
const MAX_JSON_DEPTH = 8;

/** Reads a JSON object body; anything else is a 400 with the reason. */
export async function readJsonObject(request: Request, limits: BodyLimits): Promise<Record<string, unknown>> {
  const text = await readCappedText(request, { maxDepth: MAX_JSON_DEPTH, ...limits });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body must be valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * How deep a JSON text nests, fed chunk by chunk: a deeply nested body is refused as it arrives,
 * where JSON.parse would have built it whole and held the event loop for every other caller.
 * Works on UTF-8 bytes, since every structural character is ASCII and no multi-byte sequence holds one.
 */
class JsonDepth {
  #depth = 0;
  #inString = false;
  #escaped = false;

  constructor(readonly max: number) {}

  /** Whether the text so far stays within `max`. */
  feed(bytes: Uint8Array): boolean {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (this.#escaped) {
        this.#escaped = false;
      } else if (this.#inString) {
        if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) this.#inString = false;
        else {
          // Long strings (a base64 sample) are skipped natively, to their next quote or backslash.
          const quote = bytes.indexOf(QUOTE, i);
          const backslash = bytes.indexOf(BACKSLASH, i);
          const next = quote < 0 ? backslash : backslash < 0 ? quote : Math.min(quote, backslash);
          i = (next < 0 ? bytes.length : next) - 1;
        }
      } else if (byte === QUOTE) {
        this.#inString = true;
      } else if (OPENERS.has(byte)) {
        if (++this.#depth > this.max) return false;
      } else if (CLOSERS.has(byte)) {
        this.#depth--;
      }
    }
    return true;
  }
}
