/**
 * The docs' Node fleet: the same server as three processes, installed from the tarball, on one
 * Redis and on a Redis Cluster of three masters, one person's calls going to each in turn. Then
 * Redis stopped in the middle of the flow: every answer within a second (503 while it is away),
 * normal within 2 s of its return, the code sent before verified, and its receipt used once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startEmulator } from '../../../src/emulator/index.js';
import { latestCode, until } from '../helpers.js';
import { httpInstance, installApp, listeningOrigin, roundRobinFlow, startAppServer, type App, type AppInstance, type AppServer, type FleetShare } from './consumer-apps.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import { startRedisCluster, type RedisClusterServer } from '../server/redis-cluster.js';

describe('a Node server as three processes on Redis, installed from the tarball', () => {
  let app: App;
  let share: FleetShare;
  before(async () => {
    app = installApp('node-fleet');
    share = { emulator: await startEmulator({ port: 0 }), secret: randomBytes(32).toString('hex') };
  });
  after(async () => {
    await share?.emulator.close();
    app?.remove();
  });

  /** Three processes of the app with `env`, as instances of the fleet, and a way to stop them. */
  async function startFleet(env: Record<string, string>): Promise<{ fleet: AppInstance[]; servers: AppServer[] }> {
    const servers = await Promise.all([0, 1, 2].map(() => startAppServer(app, ['server.mjs'], /listening on (\S+)/, { ...env, PORT: '0' }, share)));
    const fleet = servers.map((server) => httpInstance(listeningOrigin(server), '/api/verify', '/login'));
    // As a load balancer's readiness check: a process listening before its client has reached Redis
    // (a cluster's masters each connect on their own) answers 503 until it has.
    for (const instance of fleet) await until('a process to reach its store', async () => {
      const answer = await instance.call('config');
      await answer.body?.cancel();
      return answer.status === 200;
    }, 10_000, 100);
    return { fleet, servers };
  }

  describe('on one Redis', () => {
    let redis: RedisServer;
    let running: Awaited<ReturnType<typeof startFleet>>;
    before(async () => {
      redis = await startRedis();
      running = await startFleet({ REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    });
    after(async () => {
      await Promise.all(running?.servers.map((server) => server.close()) ?? []);
      await redis?.stop();
    });

    it('Redis stopped mid-flow: answers within a second, 503 while away, normal within 2 s of its return, nothing lost or replayed', async () => {
      const { fleet } = running;
      const phone = '+966502227733';
      assert.equal((await fleet[0]!.call('send-otp', { method: 'sms', phone, lang: 'en' })).status, 200);
      const otp = await latestCode(share.emulator.origin, phone);
      await redis.kill();
      const whileDown: { status: number; ms: number }[] = [];
      for (let i = 0; i < 9; i++) {
        const asked = performance.now();
        const response = await fleet[i % 3]!.call('verify-otp', { otp });
        whileDown.push({ status: response.status, ms: performance.now() - asked });
      }
      await redis.restart();
      const back = performance.now();
      let verified: { status: number; json: { receipt?: string } } | undefined;
      let turn = 1;
      await until('a process to verify the code after Redis returned', async () => {
        const response = await fleet[turn++ % 3]!.call('verify-otp', { otp });
        verified = { status: response.status, json: await response.json() };
        assert.ok([200, 503].includes(verified.status), JSON.stringify(verified.json));
        return verified.status === 200;
      }, 5000, 50);
      const backMs = performance.now() - back;
      const slowest = Math.max(...whileDown.map((a) => a.ms));
      console.log(`node fleet, Redis stopped: ${whileDown.length} answers (${[...new Set(whileDown.map((a) => a.status))]}), slowest ${Math.round(slowest)} ms; verified ${Math.round(backMs)} ms after its return`);
      assert.deepEqual([...new Set(whileDown.map((a) => a.status))], [503]);
      assert.ok(slowest < 1000, `slowest answer while down ${Math.round(slowest)} ms`);
      assert.ok(backMs < 2000, `normal ${Math.round(backMs)} ms after Redis returned`);
      // Each process rests its store for a moment after a failure: a redeem then is tried again.
      const outcomes = [];
      for (const instance of fleet) {
        let outcome = 'unavailable';
        await until('the process to reach Redis', async () => (outcome = await instance.redeem(verified!.json.receipt!)) !== 'unavailable', 5000, 100);
        outcomes.push(outcome);
      }
      assert.deepEqual(outcomes, ['accepted', 'replayed', 'replayed']);
    });

    // Last: it reaches the session's send cap, which holds for an hour.
    it('one person round-robin: the cooldown, the code, the receipt and the caps hold across the processes', () =>
      roundRobinFlow(running.fleet, share.emulator.origin, ['+966502227711', '+966502227722']));
  });

  describe('on a Redis Cluster of three masters', () => {
    let cluster: RedisClusterServer;
    let running: Awaited<ReturnType<typeof startFleet>>;
    before(async () => {
      cluster = await startRedisCluster();
      running = await startFleet({ REDIS_CLUSTER_NODES: cluster.ports.map((port) => `127.0.0.1:${port}`).join(',') });
    });
    after(async () => {
      await Promise.all(running?.servers.map((server) => server.close()) ?? []);
      await cluster?.stop();
    });

    it('one person round-robin: the cooldown, the code, the receipt and the caps hold across the processes', () =>
      roundRobinFlow(running.fleet, share.emulator.origin, ['+966502228811', '+966502228822']));
  });
});
