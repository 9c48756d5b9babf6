/**
 * The stand-alone service in one process (its CLI, nginx, PHP and Python are the consumer test's):
 * configuration refused by name, session tokens, signed reference callbacks, receipts redeemed once,
 * metrics a Prometheus parser reads, and /readyz following Redis down and back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
// @ts-expect-error: a CommonJS module without types
import parsePrometheus from 'parse-prometheus-text-format';
import { DEVELOPMENT_KEY, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createNodeFetch, toNodeListener } from '../../../src/server/node/index.js';
import { READ_WHOLE } from '../../../src/core/http.js';
import { ConfigError, loadConfig, type ServiceConfig } from '../../../src/service/config.js';
import { createVerifyService, type VerifyService } from '../../../src/service/service.js';
import { latestCode, sessionToken, until } from '../helpers.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { sayDigits } from '../voice/spoken.js';

const secret = () => randomBytes(32).toString('hex');
const TOKEN_SECRET = secret();
const SERVER_SECRET = secret();

/** A session token as a site mints it; `claims` overrides or removes (undefined) a claim. */
const token = (claims: Record<string, unknown> = {}, key = TOKEN_SECRET) => sessionToken(key, { sub: 'user-1', sid: 'session-1', ...claims });

describe('config', () => {
  const required = { VERIFY_SERVICE_BASE_URL: 'http://127.0.0.1:1/api/v2', VERIFY_SERVICE_API_KEY: 'k', VERIFY_RECEIPT_SECRET: secret(), VERIFY_TOKEN_SECRET: secret(), VERIFY_SERVER_SECRET: secret() };
  const refusal = (env: Record<string, string>, file = '{}') => {
    try {
      loadConfig(env, () => file);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.problems;
    }
    assert.fail('accepted');
  };

  it('names each missing or malformed field', () => {
    assert.deepEqual(refusal({}).sort(), ['VERIFY_RECEIPT_SECRET: required', 'VERIFY_SERVER_SECRET: required', 'VERIFY_SERVICE_API_KEY: required', 'VERIFY_SERVICE_BASE_URL: required', 'VERIFY_TOKEN_SECRET: required']);
    const problems = refusal({ ...required, VERIFY_TOKEN_SECRET: 'short', PORT: 'eighty', VERIFY_ALLOWED_CHANNELS: 'sms,fax', VERIFY_LIMITS: '{oops', VERIFY_BASE_PATH: 'api' });
    assert.deepEqual(problems.map((p) => p.split(':')[0]).sort(), ['PORT', 'VERIFY_ALLOWED_CHANNELS', 'VERIFY_BASE_PATH', 'VERIFY_LIMITS', 'VERIFY_TOKEN_SECRET']);
  });

  it('reads the file named by VERIFY_CONFIG, the environment winning, and refuses keys it does not know', () => {
    const config = loadConfig({ ...required, VERIFY_CONFIG: 'x.json', PORT: '9000' }, () => JSON.stringify({ PORT: 1234, VERIFY_ALLOWED_COUNTRIES: ['SA', 'AE'], VERIFY_LIMITS: { maxWrongCodes: 3 } }));
    assert.deepEqual([config.PORT, config.VERIFY_ALLOWED_COUNTRIES, config.VERIFY_LIMITS, config.VERIFY_BASE_PATH], [9000, ['SA', 'AE'], { maxWrongCodes: 3 }, '/api/verify']);
    assert.deepEqual(refusal({ ...required, VERIFY_CONFIG: 'x.json' }, '{"VERIFY_COUNTRIES":"SA"}'), ['VERIFY_COUNTRIES (in x.json): not a setting']);
  });

  it("names the variable when the handler refuses the option it became", () => {
    const config = loadConfig({ ...required, VERIFY_ALLOWED_CHANNELS: 'sms' }, () => '{}');
    assert.throws(() => createVerifyService(config), (error: ConfigError) => /^VERIFY_ALLOWED_COUNTRIES: allowedCountries is required/.test(error.problems[0]!));
  });
});

describe('the service', () => {
  let emulator: RunningEmulator;
  let redis: RedisServer;
  let service: VerifyService;
  let settings: ServiceConfig;
  let wholeReads = 0;
  let server: Server;
  let origin: string;
  const references = new Map<string, string>();
  const seen: { method: string; path: string; signature: string | null; body: string }[] = [];
  let site: Server;
  const logs: Record<string, unknown>[] = [];

  before(async () => {
    emulator = await startEmulator({ port: 0, faceModel: false });
    redis = await startRedis();
    // The site's reference endpoint, checking each signature as the docs' snippets do.
    site = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const signature = req.headers['verify-signature'] as string | undefined;
        seen.push({ method: req.method!, path: req.url!, signature: signature ?? null, body });
        const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature ?? '') ?? [];
        const expected = createHmac('sha256', SERVER_SECRET).update(`${t}.${req.method}.${req.url}.${body}`).digest('hex');
        if (!t || v1 !== expected || Math.abs(Date.now() / 1000 - Number(t)) > 300) return void res.writeHead(401).end();
        if (req.method === 'PUT') {
          references.set(req.url!, JSON.parse(body).sample);
          return void res.writeHead(204).end();
        }
        const sample = references.get(req.url!);
        res.writeHead(sample ? 200 : 404, { 'content-type': 'application/json' }).end(sample ? JSON.stringify({ sample }) : '{}');
      });
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const sitePort = (site.address() as { port: number }).port;
    const config = loadConfig(
      {
        VERIFY_SERVICE_BASE_URL: emulator.baseUrl,
        VERIFY_SERVICE_API_KEY: DEVELOPMENT_KEY,
        VERIFY_RECEIPT_SECRET: secret(),
        VERIFY_TOKEN_SECRET: TOKEN_SECRET,
        VERIFY_SERVER_SECRET: SERVER_SECRET,
        VERIFY_ALLOWED_COUNTRIES: 'SA',
        VERIFY_REDIS_URL: `redis://127.0.0.1:${redis.port}`,
        VERIFY_REFERENCES_URL: `http://127.0.0.1:${sitePort}/references`,
        // The photo path for most tests here; one test below checks faces live, as by default.
        VERIFY_FACE_LIVENESS: 'false',
      },
      () => '{}',
    );
    settings = config;
    // The Node fetch, counting the answers its whole-answer path (READ_WHOLE) gives.
    const nodeFetch = createNodeFetch();
    const readWhole = nodeFetch[READ_WHOLE];
    const fetchImpl = Object.assign(nodeFetch, { [READ_WHOLE]: (url: string, init: RequestInit) => (wholeReads++, readWhole(url, init)) });
    service = createVerifyService(config, { log: (line) => logs.push(line), fetch: fetchImpl });
    server = createServer(toNodeListener((request, info) => service.handle(request, { clientIp: info?.clientIp ?? null })));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await until('Redis to answer the service', async () => (await fetch(`${origin}/readyz`)).status === 200, 5000, 50);
  });
  after(async () => {
    server?.close();
    site?.close();
    await service?.close();
    await redis?.stop();
    await emulator?.close();
  });

  const call = (route: string, body: object | undefined, bearer?: string) =>
    fetch(`${origin}/api/verify/${route}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: body && JSON.stringify(body),
    });
  const errorOf = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];
  const redeem = (receipt: unknown, bearer = SERVER_SECRET) =>
    fetch(`${origin}/api/verify/receipts/redeem`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) });

  it('refuses missing, expired, forged, foreign and over-long tokens, each with its code', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string | undefined, string][] = [
      ['missing', undefined, 'token_missing'],
      ['expired', await token({ iat: now - 700, exp: now - 100 }), 'token_expired'],
      ['forged', await token({}, secret()), 'token_invalid'],
      ['for another audience', await token({ aud: 'someone-else' }), 'token_invalid'],
      ['without a session id', await token({ sid: undefined }), 'token_invalid'],
      ['living an hour', await token({ exp: now + 3600 }), 'token_invalid'],
      ['garbage', 'not.a.token', 'token_invalid'],
    ];
    for (const [what, bearer, code] of cases) assert.deepEqual(await errorOf(await call('config', undefined, bearer)), [401, code], what);
    // In a URL it is nothing: the token is read from the header alone.
    const inUrl = await fetch(`${origin}/api/verify/config?token=${await token()}`);
    assert.deepEqual(await errorOf(inUrl), [401, 'token_missing']);
  });

  it('a guest token sends and verifies a code, and the receipt is redeemed once', async () => {
    const guest = await token({ sub: undefined, sid: 'guest-session' });
    const phone = '+966501112233';
    assert.equal((await call('send-otp', { method: 'sms', phone, lang: 'en' }, guest)).status, 200);
    const verified = await call('verify-otp', { otp: await latestCode(emulator.origin, phone) }, guest);
    const { receipt } = (await verified.json()) as { receipt: string };
    assert.equal(verified.status, 200);
    const first = await redeem(receipt);
    const claims = (await first.json()) as { sub: string; mth: string };
    assert.deepEqual([first.status, claims.mth, claims.sub.startsWith('session:')], [200, 'otp', true]);
    assert.deepEqual(await errorOf(await redeem(receipt)), [409, 'receipt_used']);
    assert.deepEqual(await errorOf(await redeem(`${receipt.slice(0, -3)}AAA`)), [400, 'receipt_invalid']);
    assert.deepEqual(await errorOf(await redeem(receipt, secret())), [401, 'unauthorized']);
  });

  const liveService = (extra: Record<string, unknown>) => {
    const live = createVerifyService({ ...settings, VERIFY_FACE_LIVENESS: true, ...extra }, { log: () => {} });
    const post = async (route: string, body: object) => {
      const response = await live.handle(new Request(`${origin}/api/verify/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await token({ enroll: true })}` }, body: JSON.stringify(body) }), { clientIp: '127.0.0.1' });
      return { status: response.status, json: (await response.json()) as Record<string, any> };
    };
    return { live, post };
  };

  it('by default (VERIFY_FACE_LIVENESS, VERIFY_FACE_LIGHT), asks for a live challenge with the light, and refuses a picture before anything is paid', async () => {
    const { live, post } = liveService({});
    try {
      const challenge = await post('liveness-challenge', {});
      assert.equal(challenge.status, 200);
      assert.equal(challenge.json.moves.length, 2);
      assert.equal(challenge.json.light.colours.length, 8);
      const picture = (await import('../helpers.js')).stillImage('obama_1');
      const refused = await post('verify-by-face', { query_face_image: picture });
      assert.deepEqual([refused.status, refused.json.error.code], [400, 'liveness_required']);
    } finally {
      await live.close();
    }
  });

  it('VERIFY_FACE_LIGHT=false: the live challenge asks for the movements alone', async () => {
    const { live, post } = liveService({ VERIFY_FACE_LIGHT: false });
    try {
      const challenge = await post('liveness-challenge', {});
      assert.deepEqual([challenge.status, challenge.json.moves.length, challenge.json.light], [200, 2, undefined]);
    } finally {
      await live.close();
    }
  });

  it('saves and reads face references through signed calls to the site; enroll: true is the proof', async () => {
    const face = (await import('../helpers.js')).stillImage('obama_1');
    assert.deepEqual(await errorOf(await call('verify-by-face', { query_face_image: face }, await token())), [409, 'not_enrolled']);
    assert.deepEqual(await errorOf(await call('enroll-face', { face_image: face }, await token())), [403, 'proof_required']);
    assert.equal((await call('enroll-face', { face_image: face }, await token({ enroll: true }))).status, 200);
    assert.ok(references.has('/references/user-1/face'));
    const verified = await call('verify-by-face', { query_face_image: face }, await token());
    assert.equal(verified.status, 200, await verified.clone().text());
    assert.deepEqual(
      seen.map((s) => `${s.method} ${s.path} ${/^t=\d+,v1=[0-9a-f]{64}$/.test(s.signature ?? '')}`),
      ['GET /references/user-1/face true', 'GET /references/user-1/face true', 'PUT /references/user-1/face true', 'GET /references/user-1/face true'],
    );
  });

  it('by default (VERIFY_VOICE_LIVENESS), draws the digits a voice reads and refuses a recording that answers none before anything is paid; false: any recording', async () => {
    const challenge = await call('voice-challenge', { lang: 'en' }, await token());
    assert.equal(challenge.status, 200);
    assert.match(((await challenge.json()) as { digits: string }).digits, /^\d{8}$/);
    const unheard = await call('enroll-voice', { audio: Buffer.from(await sayDigits('12345678', 'slt')).toString('base64') }, await token({ enroll: true }));
    assert.deepEqual(await errorOf(unheard), [400, 'liveness_required']);
    const { live, post } = liveService({ VERIFY_VOICE_LIVENESS: false });
    try {
      assert.equal((await post('voice-challenge', { lang: 'en' })).status, 404);
    } finally {
      await live.close();
    }
  });

  it('serves metrics that a Prometheus parser reads, with sends by channel and outcome', async () => {
    for (let i = 0; i < 3; i++) await call(`no-such-route-${i}`, undefined, await token());
    const response = await fetch(`${origin}/metrics`);
    assert.match(response.headers.get('content-type')!, /^text\/plain/);
    const text = await response.text();
    const families = parsePrometheus(text) as { name: string; metrics: { labels?: Record<string, string>; value?: string }[] }[];
    const family = (name: string) => families.find((f) => f.name === name)!;
    assert.deepEqual(family('verify_otp_sends_total').metrics.map((m) => [m.labels, m.value]), [[{ channel: 'sms', outcome: 'sent' }, '1']]);
    // The service's calls are timed on the Node fetch's whole-answer path too (the one the handler takes).
    assert.match(text, /^verify_upstream_duration_seconds_count\{operation="send-otp"\} 1$/m);
    assert.ok(wholeReads > 0, 'the service client reads the Node fetch whole through the timing wrapper');
    assert.ok(Number(family('verify_service_credits').metrics[0]!.value) > 0);
    const requests = family('verify_requests_total').metrics;
    assert.ok(requests.some((m) => m.labels?.code === 'token_expired'));
    assert.deepEqual(requests.filter((m) => m.labels?.status === '404').map((m) => [m.labels?.route, m.value]), [['other', '3']]);
  });

  it('logs one JSON line per request, with no token, code, phone, sample or secret in it', () => {
    assert.ok(logs.length > 10);
    const text = JSON.stringify(logs);
    for (const secretThing of ['Bearer', 'eyJ', '+966', '966501112233', SERVER_SECRET, TOKEN_SECRET, DEVELOPMENT_KEY, '/9j/']) assert.ok(!text.includes(secretThing), secretThing);
    assert.ok(logs.every((line) => typeof line.msg === 'string' && typeof line.level === 'string'));
  });

  it('a phone link: made with the site\'s token, used by a phone with none, registers and verifies a face; the receipt is redeemed once', async () => {
    const desk = await token({ sub: 'user-2', sid: 'desk-2', enroll: true });
    const face = (await import('../helpers.js')).stillImage('obama_1');
    const phoneCall = (route: string, body: object | undefined, pass: string) =>
      fetch(`${origin}/api/verify/${route}`, { method: body ? 'POST' : 'GET', headers: { 'content-type': 'application/json', 'verify-handoff': pass }, body: body && JSON.stringify(body) });
    let status: { state: string; verified?: { receipt: string }; enrolled?: true } = { state: '' };
    let pass = '';
    for (const mode of ['enroll', 'verify'] as const) {
      const started = (await (await call('handoff-start', { kind: 'face', mode }, desk)).json()) as { token: string };
      const claimed = (await (await phoneCall('handoff-claim', {}, started.token)).json()) as { device: string; mode: string };
      assert.equal(claimed.mode, mode);
      pass = `${started.token}.${claimed.device}`;
      const config = (await (await phoneCall('config', undefined, pass)).json()) as { enrolled: { face: boolean } };
      assert.equal(config.enrolled.face, mode === 'verify');
      const captured = await phoneCall(mode === 'enroll' ? 'enroll-face' : 'verify-by-face', mode === 'enroll' ? { face_image: face } : { query_face_image: face }, pass);
      assert.equal(captured.status, 200, await captured.clone().text());
      status = (await (await call('handoff-status', { token: started.token }, desk)).json()) as typeof status;
      assert.equal(status.state, 'done');
    }
    assert.ok(references.has('/references/user-2/face'));
    const first = await redeem(status.verified!.receipt);
    assert.deepEqual([first.status, ((await first.json()) as { sub: string }).sub], [200, 'user-2']);
    assert.deepEqual(await errorOf(await redeem(status.verified!.receipt)), [409, 'receipt_used']);
    // The phone's pass opens nothing else: not a code, not another link.
    assert.deepEqual(await errorOf(await phoneCall('send-otp', { method: 'sms', phone: '+966501112299' }, pass)), [403, 'forbidden']);
    assert.deepEqual(await errorOf(await phoneCall('handoff-start', { kind: 'face' }, pass)), [403, 'forbidden']);
  });

  it('/readyz turns 503 within a second of Redis going down, and 200 within two of its return', async () => {
    assert.equal((await fetch(`${origin}/healthz`)).status, 200);
    await redis.kill();
    const down = await until('/readyz to say 503', async () => (await fetch(`${origin}/readyz`)).status === 503, 5000, 20);
    await redis.restart();
    const back = await until('/readyz to say 200', async () => (await fetch(`${origin}/readyz`)).status === 200, 5000, 20);
    console.log(`/readyz: 503 after ${down} ms, 200 ${back} ms after Redis returned`);
    assert.ok(down < 1000, `${down} ms`);
    assert.ok(back < 2000, `${back} ms`);
  });
});
