/**
 * The Upstash REST protocol in front of a real redis-server, for tests: the HTTP layer is the only
 * stand-in, every command runs on Redis. It speaks what `@upstash/redis` sends: a command as a JSON
 * array posted to `/`, several to `/pipeline` or `/multi-exec`, a bearer token, and bulk strings in
 * base64 when asked (`Upstash-Encoding: base64`). It counts the requests, so tests and the bench
 * can tell the round trips a flow costs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { REDIS_CLIENT_OPTIONS } from '../../../src/server/index.js';

export interface UpstashGateway {
  url: string;
  token: string;
  /** HTTP requests answered so far: one per round trip. */
  readonly requests: number;
  /** The command words run so far, in order ('EVALSHA', 'EVAL', 'SET'...). */
  readonly commands: string[];
  close(): Promise<void>;
}

type Reply = { result: unknown } | { error: string };

/** Bulk strings as base64, except the status reply OK, as Upstash answers and the client decodes. */
function encode(value: unknown): unknown {
  if (typeof value === 'string') return value === 'OK' ? value : Buffer.from(value).toString('base64');
  return Array.isArray(value) ? value.map(encode) : value;
}

export async function startUpstashGateway(redisPort: number, token = 'test-token'): Promise<UpstashGateway> {
  const redis = new Redis({ port: redisPort, host: '127.0.0.1', ...REDIS_CLIENT_OPTIONS });
  // A stopped Redis is what some tests are about; its refusals are answered, not logged.
  redis.on('error', () => {});
  // Without an offline queue, a command before the connection is up fails: the gateway opens ready.
  await once(redis, 'ready');
  const commands: string[] = [];
  let requests = 0;

  async function run(command: unknown, base64: boolean): Promise<Reply> {
    if (!Array.isArray(command) || command.length === 0) return { error: 'ERR a command is a non-empty JSON array' };
    const [name, ...args] = command.map(String);
    commands.push(name!.toUpperCase());
    try {
      const result = await redis.call(name!, ...args);
      return { result: base64 ? encode(result) : result };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    requests++;
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST') return send(405, { error: 'POST only' });
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
    let body: unknown;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      return send(400, { error: 'ERR the body is not JSON' });
    }
    const base64 = req.headers['upstash-encoding'] === 'base64';
    const path = new URL(req.url!, 'http://gateway').pathname.replace(/\/+$/, '');
    if (path === '/pipeline' || path === '/multi-exec') {
      if (!Array.isArray(body)) return send(400, { error: 'ERR a pipeline is a JSON array of commands' });
      const replies = path === '/pipeline' ? await pipeline(body, base64) : await transaction(body, base64);
      return 'error' in replies ? send(503, replies) : send(200, replies);
    }
    if (path !== '') return send(404, { error: `ERR no route ${path}` });
    const reply = await run(body, base64);
    // Upstash answers a command's error with 400; Redis out of reach is the gateway's own failure.
    return send('error' in reply ? (redis.status === 'ready' ? 400 : 503) : 200, reply);
  }

  async function pipeline(body: unknown[], base64: boolean): Promise<Reply[] | { error: string }> {
    if (redis.status !== 'ready') return { error: 'Redis is unreachable' };
    return Promise.all(body.map((command) => run(command, base64)));
  }

  async function transaction(body: unknown[], base64: boolean): Promise<Reply[] | { error: string }> {
    try {
      const results = (await redis.multi(body.map((command) => (command as unknown[]).map(String)) as [string, ...string[]][]).exec()) ?? [];
      for (const command of body) commands.push(String((command as unknown[])[0]).toUpperCase());
      return results.map(([error, result]) => (error ? { error: error.message } : { result: base64 ? encode(result) : result }));
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  const server = createServer((req, res) => {
    answer(req, res).catch((error) => res.writeHead(500).end(JSON.stringify({ error: String(error) })));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    get requests() {
      return requests;
    },
    commands,
    close: async () => {
      redis.disconnect();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
