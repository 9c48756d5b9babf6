/**
 * RedisStore on a Redis Cluster of three masters, each with a replica: real redis-server processes
 * in cluster mode. The store contract and the fleet's flows pass there as on one Redis; when a
 * master dies in the middle of a person's flow, its replica takes over: the code sent before is
 * verified after, and a receipt used before is still used; and the flows pass again after it.
 */
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from 'ioredis';
import { RedisStore } from '../../../src/server/index.js';
import { until } from '../helpers.js';
import { codeSentTo, MANY_FROM_ONE_ADDRESS, setup } from './handler-setup.js';
import { cli, startRedisCluster, type RedisClusterServer } from './redis-cluster.js';
import { fleetFlows, redeem, storeContract } from './store-suites.js';

let cluster: RedisClusterServer;
before(async () => (cluster = await startRedisCluster()));
after(() => cluster?.stop());

storeContract('RedisStore on a cluster of three masters', () => new RedisStore(cluster.client(), { prefix: `c${Math.random()}:` }));
fleetFlows('handler instances on a Redis Cluster', () => new RedisStore(cluster.client(), { prefix: 'fleet:' }));

describe('RedisStore on a Redis Cluster', () => {
  it('refuses a cluster client that would queue or re-send a command, naming the options', () => {
    const lax = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0]! }], { lazyConnect: true });
    try {
      assert.throws(() => new RedisStore(lax), {
        name: 'TypeError',
        message: /fails fast while Redis is down \(enableOfflineQueue, retryDelayOnFailover, redisOptions\.maxRetriesPerRequest, redisOptions\.autoResendUnfulfilledCommands\): new Cluster\(nodes, REDIS_CLUSTER_OPTIONS\)/,
      });
    } finally {
      lax.disconnect();
    }
  });

  it('checks every master for an append-only file, and warns when one keeps none', async () => {
    const warn = mock.method(console, 'warn', () => {});
    const lax = (await cluster.masters()).at(-1)!;
    await cli(lax, 'config', 'set', 'appendonly', 'no');
    try {
      new RedisStore(cluster.client());
      const warnings = () => warn.mock.calls.map((c) => String(c.arguments[0])).filter((m) => m.startsWith('RedisStore'));
      await until('the warning', () => warnings().length > 0, 5000);
      assert.match(warnings()[0]!, /Redis runs with appendonly no: used receipts and cooldowns can come back after a crash/);
    } finally {
      await cli(lax, 'config', 'set', 'appendonly', 'yes');
      warn.mock.restore();
    }
  });

  it('a master killed mid-flow: fast 503s until its replica serves, then the code sent before verifies, and a receipt used before stays used', async () => {
    const t = await setup({ store: new RedisStore(cluster.client(), { prefix: 'failover:' }), limits: { resendCooldownSeconds: 0, ...MANY_FROM_ONE_ADDRESS } }, {}, 2);
    try {
      // Before: a code sent that the person has not typed yet, on the master that will die...
      assert.equal((await t.call('send-otp', { method: 'email', email: 'pending@example.com' }, { session: 'pending' })).status, 200);
      const doomed = await cluster.masterOf(await cluster.keyOf('failover:challenge:'));
      // ...and a receipt used, whose record lives on that master too (a few flows find one).
      let used: string | undefined;
      for (let i = 0; !used; i++) {
        assert.ok(i < 30, 'no receipt landed on the doomed master');
        const email = `used${i}@example.com`;
        await t.call('send-otp', { method: 'email', email }, { session: email });
        const { receipt } = (await t.call('verify-otp', { email, otp: await codeSentTo(t.emu, email) }, { session: email })).json;
        await t.handlers[0]!.verifyReceipt(receipt, { session: email });
        const { jti } = JSON.parse(Buffer.from(receipt.split('.')[1]!, 'base64url').toString()) as { jti: string };
        if ((await cluster.masterOf(`failover:receipt:${jti}`)) === doomed) used = receipt;
      }
      // Replication is asynchronous: what a master acknowledged a moment before dying may be lost.
      // Here the replicas have caught up (WAIT), as they do within milliseconds in practice.
      await cluster.waitForReplicas();
      await cluster.kill(doomed);
      const started = performance.now();
      const answers: { status: number; ms: number }[] = [];
      const otp = await codeSentTo(t.emu, 'pending@example.com');
      for (;;) {
        const asked = performance.now();
        const res = await t.call('verify-otp', { email: 'pending@example.com', otp }, { session: 'pending' });
        answers.push({ status: res.status, ms: performance.now() - asked });
        if (res.status !== 503) {
          assert.equal(res.status, 200, JSON.stringify(res.json));
          assert.equal(await redeem(t.handlers[0]!, res.json.receipt), 'accepted');
          break;
        }
        assert.ok(performance.now() - started < 20_000, 'the cluster did not serve the slot again within 20 s');
        await new Promise((done) => setTimeout(done, 100));
      }
      const slowest = Math.max(...answers.map((a) => a.ms));
      console.log(`master :${doomed} killed: ${answers.length - 1} answers of 503 (slowest ${Math.round(slowest)} ms), verified ${Math.round(performance.now() - started)} ms after the kill`);
      // Each store call has a 500 ms deadline: a few of them at most, however loaded the machine.
      assert.ok(slowest < 2000, `slowest answer ${Math.round(slowest)} ms`);
      assert.equal(await redeem(t.handlers[1]!, used), 'replayed');
      await cluster.healthy();
    } finally {
      await t.close();
    }
  });
});

// The same flows on the cluster as the failover left it: a promoted replica serving a dead master's slots.
fleetFlows('handler instances on a Redis Cluster, after a failover', () => new RedisStore(cluster.client(), { prefix: 'after:' }));
