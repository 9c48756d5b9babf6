/**
 * The handler's `fetch` on Node: the service's calls go through `node:http(s)` with a keep-alive
 * agent, and the answer (small JSON) is read whole into one Response. Node's own `fetch` spends
 * several times this per call on web streams; the handler's core stays runtime-neutral and takes
 * whichever `fetch` it is given.
 */
import http from 'node:http';
import https from 'node:https';
import { withText } from '../../core/http.js';

export interface NodeFetchOptions {
  /** Open connections per service origin; more requests than this wait for one. */
  maxSockets?: number;
}

/** A `fetch` for string and URL inputs, as the service client calls it; no redirect is followed. */
export function createNodeFetch({ maxSockets = 64 }: NodeFetchOptions = {}): typeof fetch {
  // `timeout` is how long a pooled connection may idle (a call's own deadline is the client's).
  const options = { keepAlive: true, maxSockets, timeout: IDLE_MS };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      if (typeof input !== 'string' && !(input instanceof URL)) return reject(new TypeError('this fetch takes a URL, not a Request'));
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
          const status = response.statusCode ?? 502;
          const headers = new Headers();
          for (let i = 0; i < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
          const empty = status === 204 || status === 205 || status === 304 || init.method === 'HEAD';
          try {
            const body = empty ? null : Buffer.concat(chunks);
            const answer = new Response(body, { status, statusText: response.statusMessage ?? '', headers });
            // Its text known, the service client reads it without the body's stream.
            resolve(body === null ? answer : withText(answer, body.toString('utf8')));
          } catch (error) {
            reject(error); // a status a Response cannot have (1xx, over 599)
          }
        });
      });
      // A length, not chunks: the service sees the body as any client sends it.
      if (typeof init.body === 'string') request.setHeader('content-length', Buffer.byteLength(init.body));
      request.end(init.body ?? undefined);
    });
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
