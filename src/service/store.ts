/**
 * The service's store from its settings: one Redis (`VERIFY_REDIS_URL`), a Redis Cluster
 * (`VERIFY_REDIS_CLUSTER`), Upstash over HTTPS (`VERIFY_UPSTASH_URL` and `VERIFY_UPSTASH_TOKEN`), or
 * memory for one instance. Each client is the one the handler's store asks for: it fails fast while
 * its Redis is away, so a request is answered 503 within the store deadline rather than queued.
 */
import { Cluster, Redis } from 'ioredis';
import { Redis as UpstashRedis } from '@upstash/redis';
import { MemoryStore, REDIS_CLIENT_OPTIONS, REDIS_CLUSTER_OPTIONS, RedisStore, UpstashStore, type VerifyStore } from '../server/index.js';
import type { ServiceConfig } from './config.js';

export interface ServiceStore {
  store: VerifyStore;
  /** What the log line at start names. */
  kind: 'redis' | 'redis cluster' | 'upstash' | 'memory';
  close(): Promise<void>;
}

export function serviceStore(config: ServiceConfig): ServiceStore {
  if (config.VERIFY_UPSTASH_URL) {
    const [url, token] = [config.VERIFY_UPSTASH_URL, config.VERIFY_UPSTASH_TOKEN];
    return { store: new UpstashStore((options) => new UpstashRedis({ url, token, ...options })), kind: 'upstash', close: async () => {} };
  }
  const client = config.VERIFY_REDIS_CLUSTER
    ? new Cluster(config.VERIFY_REDIS_CLUSTER.map(seed), REDIS_CLUSTER_OPTIONS)
    : config.VERIFY_REDIS_URL
      ? new Redis(config.VERIFY_REDIS_URL, REDIS_CLIENT_OPTIONS)
      : null;
  if (!client) return { store: new MemoryStore(), kind: 'memory', close: async () => {} };
  // Errors are counted by the store's callers; without a listener ioredis would print each one.
  client.on('error', () => {});
  return {
    store: new RedisStore(client),
    kind: client instanceof Cluster ? 'redis cluster' : 'redis',
    close: () =>
      client.quit().then(
        () => {},
        () => client.disconnect(),
      ),
  };
}

/** `host:port` of a cluster node the client first asks for the slots. */
function seed(node: string): { host: string; port: number } {
  const at = node.lastIndexOf(':');
  return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
}
