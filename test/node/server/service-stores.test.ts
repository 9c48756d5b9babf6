/**
 * The stand-alone service on the fleet stores: Upstash (its REST protocol in front of a real
 * redis-server) and a Redis Cluster of three masters with replicas. Two instances of the built
 * service (`dist/service/cli.js`, the bin the package ships) on each, one person's calls taking
 * turns between them: a send on one is a cooldown on the other, a code sent through one is
 * verified through the other, and its receipt is redeemed once between them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DEVELOPMENT_KEY, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { ConfigError, loadConfig } from '../../../src/service/config.js';
import { freePort, latestCode, sessionToken, until } from '../helpers.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { startUpstashGateway, type UpstashGateway } from './upstash-gateway.js';
import { startRedisCluster, type RedisClusterServer } from './redis-cluster.js';

const CLI = fileURLToPath(new URL('../../../dist/service/cli.js', import.meta.url));
const secrets = { VERIFY_RECEIPT_SECRET: randomBytes(32).toString('hex'), VERIFY_TOKEN_SECRET: randomBytes(32).toString('hex'), VERIFY_SERVER_SECRET: randomBytes(32).toString('hex') };

interface Instance {
  origin: string;
  child: ChildProcess;
  output(): string;
}

/** One instance of the built service, listening once it answers /readyz (its store and the service reached). */
async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, ...secrets, ...env, PORT: String(port), VERIFY_LISTEN_HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  await until(
    `the instance on ${port} to be ready`,
    async () => {
      if (child.exitCode !== null) throw new Error(`exited: ${output}`);
      return fetch(`${origin}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
    },
    20_000,
    50,
  );
  return { origin, child, output: () => output };
}

async function stopAll(instances: Instance[]): Promise<void> {
  await Promise.all(
    instances.map(async ({ child }) => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }),
  );
}

const token = (sid: string) => sessionToken(secrets.VERIFY_TOKEN_SECRET, { sid });

/** A guest's call to `origin`: its status and error code. */
async function callAs(origin: string, sid: string, route: string, body: object): Promise<[number, string | undefined]> {
  const response = await fetch(`${origin}/api/verify/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await token(sid)}` },
    body: JSON.stringify(body),
  });
  return [response.status, ((await response.json()) as { error?: { code: string } }).error?.code];
}

/** One person's flow, each call to the next instance in turn. */
async function flowRoundRobin(instances: Instance[], emulator: RunningEmulator, email: string): Promise<void> {
  let turn = 0;
  const next = () => instances[turn++ % instances.length]!.origin;
  const bearer = await token(`session-${email}`);
  const call = async (route: string, body: object) => {
    const response = await fetch(`${next()}/api/verify/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as { receipt?: string; alreadySent?: true; error?: { code: string } } };
  };
  const redeem = async (receipt: string) => {
    const response = await fetch(`${next()}/api/verify/receipts/redeem`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets.VERIFY_SERVER_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ receipt }),
    });
    return [response.status, ((await response.json()) as { error?: { code: string } }).error?.code];
  };

  assert.equal((await call('send-otp', { method: 'email', email })).status, 200, 'sent through the first');
  const again = await call('send-otp', { method: 'email', email });
  assert.deepEqual([again.status, again.body.alreadySent], [200, true], 'within the cooldown the first set, the second sends nothing and says so');
  // The contact named, as the widget names it.
  const wrong = await call('verify-otp', { email, otp: '000000' === (await latestCode(emulator.origin, email)) ? '111111' : '000000' });
  assert.equal(wrong.body.error?.code, 'wrong_code', 'a wrong code, checked by the first');
  const verified = await call('verify-otp', { email, otp: await latestCode(emulator.origin, email) });
  assert.equal(verified.status, 200, 'the right code, checked by the second');
  assert.deepEqual(await redeem(verified.body.receipt!), [200, undefined]);
  assert.deepEqual(await redeem(verified.body.receipt!), [409, 'receipt_used'], 'redeemed once, whichever instance is asked');
}

describe('the service on the fleet stores, two instances each', () => {
  let emulator: RunningEmulator;
  let base: Record<string, string>;
  before(async () => {
    emulator = await startEmulator({ port: 0, faceModel: false });
    base = { VERIFY_SERVICE_BASE_URL: emulator.baseUrl, VERIFY_SERVICE_API_KEY: DEVELOPMENT_KEY, VERIFY_ALLOWED_CHANNELS: 'email', VERIFY_CODE_LENGTH: '6' };
  });
  after(() => emulator?.close());

  describe('on Upstash (its REST protocol over a real redis-server)', () => {
    let redis: RedisServer;
    let gateway: UpstashGateway;
    let instances: Instance[] = [];
    before(async () => {
      redis = await startRedis();
      gateway = await startUpstashGateway(redis.port);
      const env = { ...base, VERIFY_UPSTASH_URL: gateway.url, VERIFY_UPSTASH_TOKEN: gateway.token };
      instances = [await startInstance(env), await startInstance(env)];
    });
    after(async () => {
      await stopAll(instances);
      await gateway?.close();
      await redis?.stop();
    });

    it('one person round-robin: cooldown, code, receipt shared; each request one HTTPS request to Upstash', async () => {
      // The first flow loads the store's scripts into Redis (a refused EVALSHA, then EVAL, once each).
      await flowRoundRobin(instances, emulator, 'first@example.com');
      const before = gateway.requests;
      await flowRoundRobin(instances, emulator, 'upstash@example.com');
      // send, refused send, wrong (and its count once the service has called it wrong), right (and
      // its clean-up after the answer), two redemptions
      await until('the clean-up after the answer', async () => gateway.requests - before >= 8, 2000, 20);
      assert.equal(gateway.requests - before, 8);
      assert.match(instances[0]!.output(), /"msg":"listening".*"store":"upstash"/);
    });

    it('Redis frozen behind Upstash mid-flow: the check is answered 503 at its deadline, spends nothing, and the same code verifies once it is back', async () => {
      const email = 'frozen@example.com';
      assert.deepEqual(await callAs(instances[0]!.origin, 'frozen', 'send-otp', { method: 'email', email }), [200, undefined]);
      const code = await latestCode(emulator.origin, email);
      redis.freeze(true);
      try {
        assert.deepEqual(await callAs(instances[1]!.origin, 'frozen', 'verify-otp', { email, otp: code }), [503, 'upstream_unavailable']);
      } finally {
        redis.freeze(false);
      }
      assert.deepEqual(await callAs(instances[0]!.origin, 'frozen', 'verify-otp', { email, otp: code }), [200, undefined]);
    });
  });

  describe('on a Redis Cluster (three masters, a replica each)', () => {
    let cluster: RedisClusterServer;
    let instances: Instance[] = [];
    before(async () => {
      cluster = await startRedisCluster();
      const env = {
        ...base,
        VERIFY_REDIS_CLUSTER: cluster.ports
          .slice(0, 2)
          .map((port) => `127.0.0.1:${port}`)
          .join(','),
      };
      instances = [await startInstance(env), await startInstance(env)];
    });
    after(async () => {
      await stopAll(instances);
      await cluster?.stop();
    });

    it('one person round-robin: cooldown, code, receipt shared across the masters', async () => {
      await flowRoundRobin(instances, emulator, 'cluster@example.com');
      assert.match(instances[0]!.output(), /"msg":"listening".*"store":"redis cluster"/);
      const keys = (await cluster.onMasters('DBSIZE')).map(Number);
      assert.ok(keys.filter((n) => n > 0).length >= 2, `the state spread over the masters (keys per master: ${keys.join(', ')})`);
    });

    it('a master killed mid-flow: its replica takes over, and the code sent before verifies through the other instance', async () => {
      const email = 'failover@example.com';
      assert.deepEqual(await callAs(instances[0]!.origin, 'failover', 'send-otp', { method: 'email', email }), [200, undefined]);
      await cluster.waitForReplicas();
      await cluster.kill((await cluster.masters())[0]!);
      await cluster.healthy();
      // Until the instances' clients read the new slots (within a second), a call may be answered 503: the person tries again.
      let answer: [number, string | undefined] = [0, undefined];
      await until(
        'the instance to reach the promoted replica',
        async () => (answer = await callAs(instances[1]!.origin, 'failover', 'verify-otp', { email, otp: await latestCode(emulator.origin, email) }))[0] !== 503,
        5000,
        200,
      );
      assert.deepEqual(answer, [200, undefined]);
    });
  });

  it('refuses two stores at once, a cluster node that is not host:port, Upstash without its token, and a webhook URL that is not http(s)', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...secrets, ...env }, () => '{}');
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    assert.deepEqual(problems({ VERIFY_REDIS_URL: 'redis://127.0.0.1:6379', VERIFY_UPSTASH_URL: 'https://u.example', VERIFY_UPSTASH_TOKEN: 't' }), [
      'VERIFY_REDIS_URL, VERIFY_UPSTASH_URL: set one store, not 2',
    ]);
    assert.deepEqual(problems({ VERIFY_REDIS_CLUSTER: '10.0.0.1:7000,redis://10.0.0.2' }), ['VERIFY_REDIS_CLUSTER: "redis://10.0.0.2" is not host:port']);
    assert.deepEqual(problems({ VERIFY_UPSTASH_URL: 'https://u.example' }), ['VERIFY_UPSTASH_TOKEN: required with VERIFY_UPSTASH_URL']);
    assert.deepEqual(problems({ VERIFY_WEBHOOK_URL: 'redis://site.internal/hooks' }), ['VERIFY_WEBHOOK_URL: must be an http(s) URL of the site']);
  });
});
