/**
 * The handler's `fetch` on Node: the service's calls go through `node:http(s)` with a keep-alive
 * agent, and the answer (small JSON) is read whole. Node's own `fetch` spends several times this
 * per call on web streams; the handler's core stays runtime-neutral and takes whichever `fetch` it
 * is given. The service client takes the answer without a Response (`READ_WHOLE`).
 */
import http from 'node:http';
import https from 'node:https';
import { READ_WHOLE, type ReadWhole, type WholeAnswer } from '../../core/http.js';

export interface NodeFetchOptions {
  /** Open connections per service origin; more requests than this wait for one. */
  maxSockets?: number;
}

/** A `fetch` for string and URL inputs, as the service client calls it; no redirect is followed. */
export function createNodeFetch({ maxSockets = 64 }: NodeFetchOptions = {}): typeof fetch & { [READ_WHOLE]: ReadWhole } {
  // `timeout` is how long a pooled connection may idle (a call's own deadline is the client's).
  const options = { keepAlive: true, maxSockets, timeout: IDLE_MS };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };

  function readWhole(input: string | URL, init: RequestInit): Promise<Read> {
    return new Promise((resolve, reject) => {
      const { signal } = init;
      if (signal?.aborted) return reject(signal.reason);
      if (init.body != null && typeof init.body !== 'string') return reject(new TypeError('this fetch sends string bodies (JSON)'));
      const url = new URL(input);
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(url, { method: init.method ?? 'GET', headers: plainHeaders(init.headers), agent: secure ? agents.https : agents.http });
      const abort = () => request.destroy(signal!.reason);
      signal?.addEventListener('abort', abort, { once: true });
      const fail = (error: unknown) => {
        signal?.removeEventListener('abort', abort);
        reject(signal?.aborted ? signal.reason : error);
      };
      request.on('error', fail);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          signal?.removeEventListener('abort', abort);
          resolve({ status: response.statusCode ?? 502, statusText: response.statusMessage ?? '', rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) });
        });
      });
      // A length, not chunks: the service sees the body as any client sends it.
      if (typeof init.body === 'string') request.setHeader('content-length', Buffer.byteLength(init.body));
      request.end(init.body ?? undefined);
    });
  }

  const nodeFetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('this fetch takes a URL, not a Request');
    const { status, statusText, rawHeaders, body } = await readWhole(input, init);
    const headers = new Headers();
    for (let i = 0; i < rawHeaders.length; i += 2) headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
    const empty = status === 204 || status === 205 || status === 304 || init.method === 'HEAD';
    // A status a Response cannot have (1xx, over 599) throws here, as fetch rejects.
    return new Response(empty ? null : body, { status, statusText, headers });
  };
  const whole: ReadWhole = async (url, init) => {
    const { status, rawHeaders, body } = await readWhole(url, init);
    return { status, header: (name) => headerIn(rawHeaders, name), text: body.toString('utf8') } satisfies WholeAnswer;
  };
  return Object.assign(nodeFetch, { [READ_WHOLE]: whole });
}

interface Read {
  status: number;
  statusText: string;
  rawHeaders: string[];
  body: Buffer<ArrayBuffer>;
}

function headerIn(rawHeaders: string[], name: string): string | null {
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) return rawHeaders[i + 1]!;
  return null;
}

/**
 * A request written on a kept-alive connection just as the server closes it for idling fails
 * (ECONNRESET) unread, and a POST cannot safely be sent again: the person would see the service
 * as unreachable. So the pool closes an idle connection first: after 4 s, under the 5 s of Node
 * and Apache servers, or, given an idle timeout, Node's agent takes the service's `Keep-Alive:
 * timeout=N` less a second when that is shorter (and keeps no connection for N of 1 or less).
 */
const IDLE_MS = 4_000;

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers as Iterable<[string, string]>);
  return headers as Record<string, string>;
}
