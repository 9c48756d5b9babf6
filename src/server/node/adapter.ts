/**
 * Serves a Fetch-API handler from Node's `http` module, and from Express or Connect (same
 * signature). The request's `signal` aborts when the client goes away, so handlers can stop work.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { textOf, type FetchHandler } from '../../core/http.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export function toNodeListener(handler: FetchHandler): NodeListener {
  return (req, res, next) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const body = alreadyRead(req) ?? requestBody(req);
    // A handler that reads `info.body` gets the body and the signal there, with no web stream around it.
    const info = handler.bodyFromInfo ? { body: body.chunks(), signal: controller.signal } : null;
    handler(info ? toRequest(req) : toRequest(req, controller.signal, body.stream()), { clientIp: req.socket.remoteAddress ?? null, ...info })
      .then((response) => {
        // Answered before the body was read (refused early): the rest is read and dropped, so that
        // the next request on this kept-alive connection is parsed from where it starts.
        body.drain();
        return writeResponse(response, res);
      })
      .catch((error: unknown) => {
        body.drain();
        if (next) return next(error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Internal error');
      });
  };
}

/**
 * The body a framework's parser already read (Express's `express.json()` mounted first leaves the
 * stream ended and the value in `req.body`), as the bytes the handler would have read.
 */
/** A request's body, read one way: as a web stream, or as chunks (the lighter). */
interface Body {
  stream(): ReadableStream<Uint8Array>;
  chunks(): AsyncIterable<Uint8Array>;
  drain(): void;
}

function alreadyRead(req: IncomingMessage): Body | null {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (!req.readableEnded || parsed === undefined) return null;
  const bytes = parsed instanceof Uint8Array ? parsed : new TextEncoder().encode(typeof parsed === 'string' ? parsed : JSON.stringify(parsed));
  // The length sent no longer describes these bytes; the handler caps what it reads itself.
  delete req.headers['content-length'];
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
  return {
    stream,
    chunks: async function* () {
      yield bytes;
    },
    drain() {},
  };
}

/** Past this much unread body, an early answer closes the connection rather than read it all. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * The request body as a web stream that the handler may cancel (a body over its cap) without the
 * socket being destroyed under a kept-alive connection, and that `drain` empties when the handler
 * is done with it.
 */
function requestBody(req: IncomingMessage): Body {
  let dropping = false;
  let dropped = 0;
  const drop = (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > DRAIN_LIMIT) req.destroy();
  };
  const drain = () => {
    if (dropping || req.complete) return;
    dropping = true;
    req.removeAllListeners('data');
    req.removeAllListeners('readable');
    req.on('data', drop);
    // After Node has seen an iterator's 'readable' listener go (it looks on the next tick), or it stays paused.
    process.nextTick(() => req.resume());
  };
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on('end', () => !dropping && controller.close());
        req.on('error', (error) => !dropping && controller.error(error));
      },
      pull() {
        req.resume();
      },
      cancel: drain,
    });
  // Node's own iterator, stopped without destroying the request (and the socket with it): the rest
  // drains, and a read left waiting (a trickle past its deadline) ends as the body does.
  const chunks = () => ({
    [Symbol.asyncIterator]: () => {
      const iterator = req.iterator({ destroyOnReturn: false });
      return {
        next: () => iterator.next(),
        return: () => {
          drain();
          return Promise.resolve({ done: true as const, value: undefined });
        },
      };
    },
  });
  return { stream, chunks, drain };
}

function toRequest(req: IncomingMessage, signal?: AbortSignal, body?: ReadableStream<Uint8Array>): Request {
  const host = req.headers.host ?? 'localhost';
  // Behind Express, `originalUrl` keeps the mount path that `url` has lost.
  const path = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://${host}${path}`, {
    method: req.method,
    headers,
    ...(signal ? { signal } : {}),
    body: hasBody ? body : undefined,
    // Node's fetch needs this to accept a streaming body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  // A JSON answer (every one of the handler's) is small: sent whole, in one write.
  if (response.body && /json/i.test(response.headers.get('content-type') ?? '')) {
    const bytes = Buffer.from(await textOf(response));
    res.writeHead(response.status, { ...headers, 'content-length': String(bytes.byteLength) });
    return void res.end(bytes);
  }
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}
