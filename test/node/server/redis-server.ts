/** A throwaway redis-server for tests, that tests may stop, kill and start again on the same port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { REDIS_CLIENT_OPTIONS } from '../../../src/server/index.js';
import { freePort } from '../helpers.js';

export interface RedisServer {
  port: number;
  /** A new client with the options RedisStore requires; closed with the server. */
  client(): Redis;
  /** Ends the server process (SIGTERM, or SIGKILL for a crash) and waits for it to go. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops (SIGSTOP) or resumes (SIGCONT) the process: its connections stay open and unanswered. */
  freeze(frozen: boolean): void;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** An append-only file, fsynced every second: the persistence the README asks of a deployment. */
  appendonly?: boolean;
}

/** Starts a redis-server with these arguments and waits until it accepts connections; fails if it exits first. */
export async function spawnRedis(args: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(() => {
    throw new Error(`redis-server ${args.join(' ')} exited before it was ready: ${output.slice(-500)}`);
  });
  exited.catch(() => {});
  while (!/Ready to accept connections/.test(output)) await Promise.race([once(child.stdout!, 'data'), exited]);
  return child;
}

/** Starts redis-server on a free port, in a data directory of its own, with an append-only file unless told not to. */
export async function startRedis({ appendonly = true }: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'verify-redis-'));
  const persistence = appendonly ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no'];
  let child: ChildProcess;
  const start = async () => {
    child = await spawnRedis(['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence]);
  };
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  await start();
  const clients: Redis[] = [];
  return {
    port,
    client: () => {
      const redis = new Redis({ port, host: '127.0.0.1', ...REDIS_CLIENT_OPTIONS });
      // Refused commands while the server is down are the tests' subject, not noise.
      redis.on('error', () => {});
      clients.push(redis);
      return redis;
    },
    kill,
    freeze: (frozen) => void child.kill(frozen ? 'SIGSTOP' : 'SIGCONT'),
    restart: start,
    stop: async () => {
      for (const c of clients) c.disconnect();
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
