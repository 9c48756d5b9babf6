import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { MemoryStore, REDIS_CLIENT_OPTIONS, RedisStore } from '../../../src/server/index.js';
import { freePort, until } from '../helpers.js';
import { spawnRedis, startRedis, type RedisServer } from './redis-server.js';
import { fleetFlows, storeContract } from './store-suites.js';

let redisServer: RedisServer;
const client = () => redisServer.client();

before(async () => (redisServer = await startRedis()));
after(() => redisServer.stop());

storeContract('MemoryStore', () => new MemoryStore());
storeContract('RedisStore', () => new RedisStore(client(), { prefix: `t${Math.random()}:` }));
fleetFlows('two handler instances on one Redis', () => new RedisStore(client(), { prefix: 'shared:' }));

describe('RedisStore on a Redis that refuses CONFIG, as managed services often do', () => {
  it('says once that it could not check the persistence, and works', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'verify-redis-'));
    const server = await spawnRedis(['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--rename-command', 'CONFIG', '']);
    const client = new Redis({ port, host: '127.0.0.1', ...REDIS_CLIENT_OPTIONS });
    const warn = mock.method(console, 'warn', () => {});
    try {
      const store = new RedisStore(client);
      assert.deepEqual(await store.increment('n', 60), { count: 1, ttl: 60 });
      const warnings = () => warn.mock.calls.map((c) => String(c.arguments[0])).filter((m) => m.startsWith('RedisStore'));
      await until('the warning', () => warnings().length > 0, 5000);
      assert.equal(warnings().length, 1);
      assert.match(warnings()[0]!, /could not read Redis's persistence \(CONFIG GET: ERR unknown command 'config'.*\); make sure it keeps an append-only file/i);
    } finally {
      warn.mock.restore();
      client.disconnect();
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
