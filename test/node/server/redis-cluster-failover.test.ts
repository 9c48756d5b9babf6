/**
 * Issue 44, item 4: a used receipt, and a code used up (the claim of the code typed), stay used through a Redis
 * Cluster failover. Replication is asynchronous, so a master killed right after a write takes it
 * along unless the write waited for its replica (RedisStore's WAIT after a claim or a take). Here the
 * replica falls behind (stopped, its link cut) while a receipt is used and a code verified; the
 * master is killed (SIGKILL) as soon as they are answered, and the replica promoted. Through RedisStore as it is, both are refused on every
 * instance; with `replicas: 0` (no WAIT) the same sequence accepts them again, which is what the
 * WAIT prevents.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import calculateSlot from 'cluster-key-slot';
import { RedisStore } from '../../../src/server/index.js';
import { until } from '../helpers.js';
import { codeSentTo, MANY_FROM_ONE_ADDRESS, SECRET, setup } from './handler-setup.js';
import { hashSession } from '../../../src/server/receipts.js';
import { keyedHash, webKeyedCrypto } from '../../../src/server/keyed-crypto.js';
import { keys } from '../../../src/server/store/keys.js';
import { cli, startRedisCluster, type RedisClusterServer } from './redis-cluster.js';
import { redeem } from './store-suites.js';

let cluster: RedisClusterServer;
before(async () => (cluster = await startRedisCluster()));
after(() => cluster?.stop());

/** A service that accepts any code, as a lenient one would: only the handler's challenge can refuse a code used twice. */
const lenient = (async (url: string, init: RequestInit) => (url.endsWith('/verify-otp') ? Response.json({ status: true, message: 'OTP verified' }) : fetch(url, init))) as typeof fetch;


/** Calls until the cluster serves the key's slot again: the answer that is not a 503. */
async function once503sEnd(call: () => Promise<{ status: number; json: any }>) {
  for (let i = 0; ; i++) {
    const answer = await call();
    if (answer.status !== 503 || i > 200) return answer;
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('a Redis Cluster failover right after a receipt is used and a code verified', () => {
  for (const [label, replicas, after] of [
    ['as RedisStore is (WAIT for the replica)', undefined, 'refused'],
    ['with replicas: 0 (no WAIT)', 0, 'accepted again'],
  ] as const) {
    it(`${label}: the promoted replica has them ${after === 'refused' ? 'used, on every instance' : 'unused: the hole WAIT closes'}`, async () => {
      const prefix = `durable${replicas ?? ''}:`;
      const client = cluster.client();
      const store = new RedisStore(client, { prefix, replicaWaitMs: 2000, ...(replicas === undefined ? {} : { replicas }) });
      const t = await setup({ store, storeTimeoutMs: 3000, fetch: lenient, limits: { resendCooldownSeconds: 0, ...MANY_FROM_ONE_ADDRESS } }, {}, 3);
      try {
        // The master to kill: one that has a replica to promote.
        let doomed = 0;
        for (const port of await cluster.masters()) if (!doomed && (await cluster.replicaOf(port).catch(() => 0))) doomed = port;
        // A code sent whose challenge, and whose use (the claim of the code typed, keys.codeTried),
        // would live on that master...
        let pending = '';
        for (let i = 0; !pending; i++) {
          assert.ok(i < 100, 'no code would be used up on the master');
          const email = `p${i}@example.com`;
          const sent = await once503sEnd(() => t.call('send-otp', { method: 'email', email }, { session: `p${i}` }));
          assert.equal(sent.status, 200, JSON.stringify(sent.json));
          const [session, id, guess] = await Promise.all([hashSession(`p${i}`, SECRET), keyedHash(webKeyedCrypto, SECRET, email), keyedHash(webKeyedCrypto, SECRET, `otp:${await codeSentTo(t.emu, email)}`)]);
          const masters = await Promise.all([keys.code(session, id), keys.codeTried(session, id, guess)].map((key) => cluster.masterOf(`${prefix}${key}`)));
          if (masters.every((master) => master === doomed)) pending = `p${i}`;
        }
        // ...and a receipt not used yet, whose record would live there too.
        let receipt = '';
        for (let i = 0; !receipt; i++) {
          assert.ok(i < 40, 'no receipt would land on the master');
          const email = `r${i}@example.com`;
          const sent = await t.call('send-otp', { method: 'email', email }, { session: `r${i}` });
          assert.equal(sent.status, 200, JSON.stringify(sent.json));
          const got = (await t.call('verify-otp', { email, otp: await codeSentTo(t.emu, email) }, { session: `r${i}` })).json.receipt as string;
          const { jti } = JSON.parse(Buffer.from(got.split('.')[1]!, 'base64url').toString()) as { jti: string };
          if ((await cluster.masterOf(`${prefix}receipt:${jti}`)) === doomed) receipt = got;
        }
        // As on a cluster in service: the client has read the replica of that master (a master's
        // replicas are listed once they hold any of its writes, and the client reads the list each second).
        const { jti } = JSON.parse(Buffer.from(receipt.split('.')[1]!, 'base64url').toString()) as { jti: string };
        await until('the client to list the replica', () => client.slots[calculateSlot(`${prefix}receipt:${jti}`)]!.length > 1, 5000, 50);
        const otp = await codeSentTo(t.emu, `${pending}@example.com`);
        const verify = () => t.call('verify-otp', { email: `${pending}@example.com`, otp }, { session: pending });

        // The replica falls behind: stopped, its link cut (so nothing more reaches it), and back in
        // 300 ms, while the receipt is used and the code verified. The master dies right after.
        const replica = await cluster.replicaOf(doomed);
        cluster.pause(replica, true);
        await cli(doomed, 'client', 'kill', 'type', 'replica');
        // With WAIT the answers wait for it; without, it stays stopped until the master is dead, however
        // long the answers take on a loaded machine.
        const resume = () => cluster.pause(replica, false);
        const resumed = replicas === 0 ? null : setTimeout(resume, 300);
        const started = performance.now();
        const [used, verified] = await Promise.all([redeem(t.handlers[0]!, receipt), verify()]);
        const waited = performance.now() - started;
        await cluster.kill(doomed);
        if (resumed === null) resume();
        assert.deepEqual([used, verified.status], ['accepted', 200], JSON.stringify(verified.json));
        await cluster.healthy();

        const codes = [];
        for (let i = 0; i < 3; i++) codes.push((await once503sEnd(verify)).status);
        const again = [];
        for (const handler of t.handlers) again.push(await redeem(handler, receipt));
        console.log(`${label}: used and verified in ${Math.round(waited)} ms with the replica stopped; after the failover, the receipt: ${again.join(', ')}; the code: ${codes.join(', ')}`);
        if (after === 'refused') {
          assert.deepEqual(again, ['replayed', 'replayed', 'replayed']);
          assert.deepEqual(codes, [422, 422, 422]);
          assert.ok(waited >= 250, `answered in ${Math.round(waited)} ms, before the replica had the writes`);
        } else {
          assert.equal(again[0], 'accepted');
          assert.equal(codes[0], 200);
        }
      } finally {
        await t.close();
      }
    });
  }

  it('no replica confirms within replicaWaitMs: the claim and the take are undone and refused with a clear error, and succeed once the replica is back', async () => {
    const client = cluster.client();
    const store = new RedisStore(client, { prefix: 'lagging:', replicaWaitMs: 200 });
    let master = 0;
    for (const port of await cluster.masters()) if (!master && (await cluster.replicaOf(port).catch(() => 0))) master = port;
    // Two keys on that master, which the client knows to have a replica.
    const onMaster: string[] = [];
    for (let i = 0; onMaster.length < 2; i++) if ((await cluster.masterOf(`lagging:k${i}`)) === master) onMaster.push(`k${i}`);
    await store.set(onMaster[1]!, 60, 'sms');
    await until('the client to list the replica', () => client.slots[calculateSlot(`lagging:${onMaster[0]}`)]!.length > 1, 5000, 50);
    const replica = await cluster.replicaOf(master);
    cluster.pause(replica, true);
    try {
      await assert.rejects(store.claim(onMaster[0]!, 60), { name: 'StoreUnavailableError', message: /No Redis replica confirmed a claim within 200 ms \(WAIT 1\)/ });
      assert.equal(await store.get(onMaster[0]!), null, 'the claim was undone');
      await assert.rejects(store.take(onMaster[1]!), { name: 'StoreUnavailableError' });
      assert.equal(await store.get(onMaster[1]!), 'sms', 'the take was undone');
    } finally {
      cluster.pause(replica, false);
    }
    await until('the replica to confirm again', () => store.claim(onMaster[0]!, 60).then((c) => c.claimed, () => false), 5000, 100);
    assert.equal(await store.take(onMaster[1]!), 'sms');
  });
});
