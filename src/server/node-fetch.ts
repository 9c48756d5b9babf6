/**
 * The handler's `fetch` on Node: the service's calls go through `node:http(s)` with a keep-alive
 * agent, and the answer (small JSON) is read whole into one Response. Node's own `fetch` spends
 * several times this per call on web streams; the handler's core stays runtime-neutral and takes
 * whichever `fetch` it is given.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';

export interface NodeFetchOptions {
  /** Open connections per service origin; more requests than this wait for one. */
  maxSockets?: number;
}

/** A `fetch` for string and URL inputs, as the service client calls it; no redirect is followed. */
export function createNodeFetch({ maxSockets = 64 }: NodeFetchOptions = {}): typeof fetch {
  const idleLimits = new WeakMap<object, number>();
  const agents = { http: closingFirst(new http.Agent({ keepAlive: true, maxSockets }), idleLimits), https: closingFirst(new https.Agent({ keepAlive: true, maxSockets }), idleLimits) };
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
        idleLimits.set(response.socket, idleLimit(response.headers['keep-alive']));
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
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: response.statusMessage ?? '', headers }));
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

/** How long a connection idles in the pool when the service does not say: under the 5 s after which Node and Apache servers close. */
const DEFAULT_IDLE_MS = 4_000;

/**
 * A request written on a kept-alive connection just as the server closes it for idling fails
 * (ECONNRESET) unread, and a POST cannot safely be sent again: the person would see the service
 * as unreachable. So the pool closes an idle connection first, a second before the time the
 * service announces in `Keep-Alive: timeout=N` (as newer Node does), or after DEFAULT_IDLE_MS.
 */
function closingFirst<A extends http.Agent>(agent: A, idleLimits: WeakMap<object, number>): A {
  const keep = agent.keepSocketAlive.bind(agent);
  agent.keepSocketAlive = (socket) => {
    const idleMs = idleLimits.get(socket) ?? DEFAULT_IDLE_MS;
    // The agent's own check runs too (probes, unref; Node 20 keeps no socket announced for 1 s or less).
    const kept: unknown = keep(socket);
    if (idleMs <= 0 || kept === false) return false;
    // The agent destroys a pooled connection when its timeout passes.
    (socket as Socket).setTimeout(idleMs);
    return true;
  };
  return agent;
}

function idleLimit(keepAlive: string | string[] | undefined): number {
  const announced = /timeout=(\d+)/.exec(String(keepAlive ?? ''))?.[1];
  return announced === undefined ? DEFAULT_IDLE_MS : Number(announced) * 1000 - 1000;
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers as Iterable<[string, string]>);
  return headers as Record<string, string>;
}
