/**
 * The two ways a handler keeps state, for tests that must hold on both: the MemoryStore, and two
 * handler instances sharing one real redis-server (calls take turns between them).
 */
import { after, before } from 'node:test';
import { MemoryStore, RedisStore, type VerifyHandlerOptions } from '../../../src/server/index.js';
import type { EmulatorOptions } from '../../../src/emulator/index.js';
import { setup } from './handler-setup.js';
import { startRedis, type RedisServer } from './redis-server.js';

export type OpenHandler = (overrides: Partial<VerifyHandlerOptions>, emulator?: EmulatorOptions) => ReturnType<typeof setup>;

/** Starts a redis-server for the file (stopped after it) and names the two backends. */
export function storeBackends(): [string, OpenHandler][] {
  let redis: RedisServer;
  before(async () => (redis = await startRedis()));
  after(() => redis.stop());
  let n = 0;
  return [
    ['MemoryStore', (overrides, emulator) => setup({ store: new MemoryStore(), ...overrides }, emulator)],
    ['two instances on one Redis', (overrides, emulator) => setup({ store: new RedisStore(redis.client(), { prefix: `t${n++}:` }), ...overrides }, emulator, 2)],
  ];
}
