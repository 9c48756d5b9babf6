/**
 * A throwaway Redis Cluster for tests: three masters and, for failover, a replica of each, every one
 * a real redis-server in cluster mode with an append-only file, joined by `redis-cli --cluster create`.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster } from 'ioredis';
import { REDIS_CLUSTER_OPTIONS } from '../../../src/server/index.js';
import { freePort, until } from '../helpers.js';
import { spawnRedis } from './redis-server.js';

export interface RedisClusterServer {
  ports: number[];
  /** A new cluster client with the options RedisStore requires; closed with the cluster. */
  client(): Cluster;
  /** The first key, on any master, that starts with `prefix`. */
  keyOf(prefix: string): Promise<string>;
  /** Waits until each master's replica has every write the master acknowledged (WAIT). */
  waitForReplicas(): Promise<void>;
  /** The ports of the living masters. */
  masters(): Promise<number[]>;
  /** Runs a command on every living master. */
  onMasters(...command: string[]): Promise<string[]>;
  /** The port of the master that holds `key`'s slot. */
  masterOf(key: string): Promise<number>;
  /** The port of the replica of the master on `port`. */
  replicaOf(port: number): Promise<number>;
  /** Stops a node's process (SIGSTOP) or lets it go on (SIGCONT): a replica that falls behind. */
  pause(port: number, paused: boolean): void;
  /** Kills a node (SIGKILL), as a crash would. */
  kill(port: number): Promise<void>;
  /** Waits until every slot is served again, by a promoted replica where a master died. */
  healthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const run = promisify(execFile);
/** Whether nothing listens on `port` at this moment. */
async function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  const listening = await new Promise<boolean>((done) => probe.once('error', () => done(false)).listen(port, '127.0.0.1', () => done(true)));
  if (listening) await new Promise((done) => probe.close(done));
  return listening;
}

/** redis-cli against one node, answering what it printed. */
export const cli = (port: number, ...args: string[]) => run('redis-cli', ['-p', String(port), ...args]).then(({ stdout }) => stdout);

/** Starts `shards` masters with `replicas` replicas each; failures are noticed within a second. */
export async function startRedisCluster({ shards = 3, replicas = 1 } = {}): Promise<RedisClusterServer> {
  const ports: number[] = [];
  while (ports.length < shards * (1 + replicas)) {
    // A cluster node also listens on its port + 10000 (the cluster bus): both must be free.
    const port = await freePort();
    if (port + 10_000 <= 65_535 && !ports.includes(port) && (await isFree(port + 10_000))) ports.push(port);
  }
  const dir = mkdtempSync(join(tmpdir(), 'verify-redis-cluster-'));
  const children = new Map<number, ChildProcess>();
  await Promise.all(
    ports.map(async (port) => {
      children.set(port, await spawnRedis(['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--dbfilename', `dump-${port}.rdb`, '--save', '',
        '--appendonly', 'yes', '--appendfsync', 'everysec', '--appendfilename', `appendonly-${port}.aof`, '--appenddirname', `aof-${port}`,
        '--repl-diskless-sync-delay', '0', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000']));
    }),
  );
  await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes']);
  /** Ends one node's process and waits for it to go. */
  const end = async (port: number, signal: NodeJS.Signals) => {
    const child = children.get(port)!;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  const living = () => ports.filter((port) => children.get(port)!.exitCode === null && children.get(port)!.signalCode === null);
  const healthy = async (timeoutMs = 20_000) => {
    await until('every node to see the cluster whole', async () => {
      const infos = await Promise.all(living().map((port) => cli(port, 'cluster', 'info').catch(() => '')));
      return infos.every((info) => /cluster_state:ok/.test(info) && /cluster_slots_ok:16384/.test(info));
    }, timeoutMs, 100);
  };
  await healthy();
  const masters = async () => {
    const nodes = await cli(living()[0]!, 'cluster', 'nodes');
    return nodes.split('\n').filter((l) => /\bmaster\b/.test(l) && !/\bfail\b/.test(l)).map((l) => Number(/:(\d+)@/.exec(l)![1]));
  };
  const onMasters = async (...command: string[]) => Promise.all((await masters()).map((port) => cli(port, ...command)));
  // Every replica in sync before the cluster is handed over, as a failover test needs.
  await until('every replica to sync', async () => (await onMasters('info', 'replication')).every((info) => (info.match(/^slave\d+:.*state=online/gm) ?? []).length >= replicas), 20_000, 100);
  const clients: Cluster[] = [];
  return {
    ports,
    client: () => {
      // Every living node to start from: the first may have been killed.
      const cluster = new Cluster(living().map((port) => ({ host: '127.0.0.1', port })), REDIS_CLUSTER_OPTIONS);
      // Refused commands while a master is down are the tests' subject, not noise.
      cluster.on('error', () => {});
      clients.push(cluster);
      return cluster;
    },
    async keyOf(prefix) {
      const found = (await onMasters('--scan', '--pattern', `${prefix}*`)).join('\n').split('\n').find(Boolean);
      if (!found) throw new Error(`no key starts with ${prefix}`);
      return found;
    },
    async waitForReplicas() {
      const acknowledged = await onMasters('wait', String(replicas), '2000');
      if (acknowledged.some((n) => Number(n) < replicas)) throw new Error(`replicas behind: ${acknowledged.join(', ')}`);
    },
    masters,
    onMasters,
    async masterOf(key) {
      const slot = Number((await cli(living()[0]!, 'cluster', 'keyslot', key)).trim());
      const nodes = await cli(living()[0]!, 'cluster', 'nodes');
      const line = nodes.split('\n').find((l) => /\bmaster\b/.test(l) && !/\bfail\b/.test(l) && l.split(' ').slice(8).some((range) => {
        const [from, to = from] = range.split('-').map(Number);
        return slot >= from! && slot <= to!;
      }));
      if (!line) throw new Error(`no master holds slot ${slot}`);
      return Number(/:(\d+)@/.exec(line)![1]);
    },
    async replicaOf(port) {
      const lines = (await cli(living()[0]!, 'cluster', 'nodes')).split('\n');
      const id = lines.find((l) => l.includes(`:${port}@`))!.split(' ')[0];
      const replica = lines.find((l) => /\bslave\b/.test(l) && l.split(' ')[3] === id);
      if (!replica) throw new Error(`the master on ${port} has no replica`);
      return Number(/:(\d+)@/.exec(replica)![1]);
    },
    pause: (port, paused) => void children.get(port)!.kill(paused ? 'SIGSTOP' : 'SIGCONT'),
    kill: (port) => end(port, 'SIGKILL'),
    healthy,
    stop: async () => {
      for (const c of clients) c.disconnect();
      // Closed for good before the nodes go, so that no client is left reconnecting to them.
      await until('every client to close', () => clients.every((c) => c.status === 'close' || c.status === 'end'), 5000, 20);
      await Promise.all(living().map((port) => end(port, 'SIGTERM')));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
