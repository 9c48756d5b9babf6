/** A throwaway redis-server for tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface RedisServer {
  port: number;
  /** A new client; closed with the server. */
  client(): Redis;
  stop(): Promise<void>;
}

/** Starts redis-server on a free port, without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  while (!/Ready to accept connections/.test(output)) await once(child.stdout!, 'data');
  const clients: Redis[] = [];
  return {
    port,
    client: () => {
      const redis = new Redis({ port, host: '127.0.0.1' });
      clients.push(redis);
      return redis;
    },
    stop: async () => {
      await Promise.all(clients.map((c) => c.quit()));
      child.kill();
    },
  };
}
