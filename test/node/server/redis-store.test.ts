import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { MemoryStore, REDIS_CLIENT_OPTIONS, REDIS_CLUSTER_OPTIONS, RedisStore, type RedisClient } from '../../../src/server/index.js';
import { freePort, until } from '../helpers.js';
import { spawnRedis, startRedis, type RedisServer } from './redis-server.js';
import { CANCEL, PLAN, planAnswer, planArguments } from '../../../src/server/store/plan-script.js';
import type { PlanStep } from '../../../src/server/store/plan.js';
import { fleetFlows, storeContract } from './store-suites.js';

let redisServer: RedisServer;
const client = () => redisServer.client();

before(async () => (redisServer = await startRedis()));
after(() => redisServer.stop());

storeContract('MemoryStore', () => new MemoryStore());
storeContract('RedisStore', () => new RedisStore(client(), { prefix: `t${Math.random()}:` }));
fleetFlows('two handler instances on one Redis', () => new RedisStore(client(), { prefix: 'shared:' }));

describe("a plan's cancel, whichever reaches Redis first", () => {
  // A request that gave up on its plan sends CANCEL behind it; on a frozen Redis both wait, in order.
  const SEND: PlanStep[] = [
    { op: 'claim', key: 'cool', seconds: 30, need: 'cooldown' },
    { op: 'spend', key: 'budget', max: 3, seconds: 60, step: 1, need: 'cap' },
    { op: 'increment', key: 'count', seconds: 60 },
    { op: 'set', key: 'code', seconds: 60, value: 'sms' },
  ];
  const run = (redis: Redis, prefix: string, log: string) => {
    const { keys, args } = planArguments(SEND, prefix, log);
    return redis.eval(PLAN, keys.length, ...keys, ...args);
  };
  const connected = async () => {
    const redis = client();
    if (redis.status !== 'ready') await once(redis, 'ready');
    return redis;
  };
  const state = (redis: Redis, prefix: string) => Promise.all(['cool', 'budget', 'count', 'code'].map((key) => redis.get(prefix + key)));

  it('after the plan ran: everything it did is undone', async () => {
    const redis = await connected();
    const prefix = `cancel-after${Math.random()}:`;
    const log = `${prefix}plan:1`;
    assert.deepEqual(planAnswer(SEND, await run(redis, prefix, log)).stop, undefined);
    assert.equal(await redis.get(`${prefix}code`), 'sms');
    await redis.eval(CANCEL, 1, log);
    assert.deepEqual(await state(redis, prefix), [null, null, '0', null]);
    redis.disconnect();
  });

  it('before it: the plan does nothing when it comes', async () => {
    const redis = await connected();
    const prefix = `cancel-before${Math.random()}:`;
    const log = `${prefix}plan:1`;
    await redis.eval(CANCEL, 1, log);
    await assert.rejects(async () => planAnswer(SEND, await run(redis, prefix, log)), /cancelled/);
    assert.deepEqual(await state(redis, prefix), [null, null, null, null]);
    redis.disconnect();
  });
});

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

describe('RedisStore on a cluster whose master is still connecting (at start, or after a failover)', () => {
  it('the commands waiting for it hold one listener between them, and go on once it is ready', async () => {
    // A stand-in for an ioredis Cluster: connected, its one master still connecting.
    const master = Object.assign(new EventEmitter(), {
      status: 'connecting',
      connect: async () => {},
      config: async (_: string, name: string) => [name, name === 'appendonly' ? 'yes' : 'everysec'],
    });
    const cluster = { options: REDIS_CLUSTER_OPTIONS, status: 'ready', isCluster: true, nodes: () => [master], get: async () => 'value' };
    const store = new RedisStore(cluster as unknown as RedisClient, { connectWaitMs: 10_000 });
    // Each command used to add its own listener: past ten, Node warned of a leak, and under a long
    // outage they piled up on the node.
    const gets = Array.from({ length: 20 }, () => store.get('key'));
    assert.equal(master.listenerCount('ready'), 1);
    master.status = 'ready';
    master.emit('ready');
    assert.deepEqual(await Promise.all(gets), Array(20).fill('value'));
    assert.equal(master.listenerCount('ready'), 0);
  });
});
