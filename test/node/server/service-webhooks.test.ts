/**
 * The service's webhooks (VERIFY_WEBHOOK_URL): each verification, abuse alert and low balance is
 * POSTed to the site, signed as the reference callbacks are, with an id the site keeps once; the
 * person's request does not wait for it; a site that fails is tried again with backoff, and an
 * event is given up after its time with a log line.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { DEVELOPMENT_KEY, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { toNodeListener } from '../../../src/server/node/index.js';
import { loadConfig } from '../../../src/service/config.js';
import { createVerifyService, type VerifyService } from '../../../src/service/service.js';
import { control, latestCode, sessionToken, until } from '../helpers.js';

const SECRETS = { VERIFY_RECEIPT_SECRET: randomBytes(32).toString('hex'), VERIFY_TOKEN_SECRET: randomBytes(32).toString('hex'), VERIFY_SERVER_SECRET: randomBytes(32).toString('hex') };

interface Delivery {
  id: string;
  header: string | undefined;
  signed: boolean;
  event: { id: string; type: string; created: string; data: Record<string, unknown> };
}

/** The site's receiver: it checks each signature as the docs' receivers do, and answers as `answer` says. */
function receiver() {
  const deliveries: Delivery[] = [];
  const kept = new Map<string, Delivery['event']>();
  let answer: (res: ServerResponse, delivery: Delivery) => void = (res) => res.writeHead(204).end();
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['verify-signature'])) ?? [];
      const expected = createHmac('sha256', SECRETS.VERIFY_SERVER_SECRET).update(`${t}.POST.${req.url}.${body}`).digest('hex');
      const event = JSON.parse(body) as Delivery['event'];
      const delivery = { id: String(req.headers['verify-event-id']), header: req.headers['verify-event-id'] as string | undefined, signed: v1 === expected, event };
      deliveries.push(delivery);
      // Kept once it is answered 2xx, as a site commits its row with its answer.
      res.on('finish', () => res.statusCode < 300 && delivery.signed && !kept.has(delivery.id) && kept.set(delivery.id, event));
      answer(res, delivery);
    });
  });
  return {
    server,
    deliveries,
    kept,
    answerWith(next: typeof answer) {
      answer = next;
    },
  };
}

describe('the service tells the site what happened (webhooks)', () => {
  let emulator: RunningEmulator;
  let site: ReturnType<typeof receiver>;
  let service: VerifyService;
  let server: Server;
  let origin: string;
  const logs: Record<string, unknown>[] = [];

  /** A service instance telling `site`, on a port of its own. */
  async function serve() {
    const config = loadConfig(
      {
        ...SECRETS,
        VERIFY_SERVICE_BASE_URL: emulator.baseUrl,
        VERIFY_SERVICE_API_KEY: DEVELOPMENT_KEY,
        VERIFY_ALLOWED_COUNTRIES: 'SA',
        VERIFY_WEBHOOK_URL: `http://127.0.0.1:${(site.server.address() as AddressInfo).port}/hooks/verify`,
        VERIFY_WEBHOOK_GIVE_UP_SECONDS: '4',
        VERIFY_LOW_BALANCE_THRESHOLD: '1000',
        // An alert past two codes to one range of numbers in an hour.
        VERIFY_LIMITS: JSON.stringify({ sendsPerPrefix: { alertAt: 2, max: 1000, windowSeconds: 3600 } }),
      },
      () => '{}',
    );
    const service = createVerifyService(config, { log: (line) => logs.push(line) });
    const server = createServer(toNodeListener((request, info) => service.handle(request, { clientIp: info?.clientIp ?? null })));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return { service, server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  before(async () => {
    emulator = await startEmulator({ port: 0, faceModel: false });
    // Over the low-balance threshold, until a test brings it under.
    await control(emulator.origin, 'PUT', 'balance', { balance: 1_000_000 });
    site = receiver();
    await new Promise<void>((done) => site.server.listen(0, '127.0.0.1', done));
    ({ service, server, origin } = await serve());
  });
  after(async () => {
    server?.close();
    site?.server.close();
    await service?.close();
    await emulator?.close();
  });

  const call = async (sid: string, route: string, body?: object, at = origin) => {
    const bearer = await sessionToken(SECRETS.VERIFY_TOKEN_SECRET, { sid });
    const response = await fetch(`${at}/api/verify/${route}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: body && JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { receipt?: string } };
  };
  const kept = (type: string) => [...site.kept.values()].filter((event) => event.type === type);

  it('a verification: the person is answered while the site still holds the event; the site, failing once, has it again after a second, signed, kept once', async () => {
    const held: ServerResponse[] = [];
    site.answerWith((res, delivery) => (delivery.event.type === 'verified' ? held.push(res) : res.writeHead(204).end()));
    const email = 'hooked@example.com';
    assert.equal((await call('hooked', 'send-otp', { method: 'email', email })).status, 200);
    const verified = await call('hooked', 'verify-otp', { email, otp: await latestCode(emulator.origin, email) });
    assert.equal(verified.status, 200);
    await until('the event to reach the site', async () => held.length === 1, 2000, 10);
    assert.equal(held[0]!.writableEnded, false, 'the person had the answer while the site held the event');
    const { jti } = decodeJwt(verified.body.receipt!);

    // The site fails (500), then takes it: the same event, the same id, tried again.
    site.answerWith((res) => res.writeHead(204).end());
    held[0]!.writeHead(500).end();
    await until('the event to be tried again', async () => kept('verified').length === 1, 5000, 20);
    const attempts = site.deliveries.filter((d) => d.event.type === 'verified');
    assert.equal(attempts.length, 2);
    assert.ok(
      attempts.every((d) => d.signed && d.header === d.event.id && d.id === attempts[0]!.id),
      'both signed, under one id',
    );
    assert.deepEqual(kept('verified')[0]!.data, { user: null, method: 'otp', identifier: email, receiptId: jti });
    // Logged once the site's 204 is read, which can come a moment after the site kept the event.
    await until('the delivery to be logged', async () => logs.some((line) => line.msg === 'webhook delivered' && line.attempts === 2), 2000, 10);
  });

  it('an abuse alert and a low balance, each once', async () => {
    for (const [i, number] of ['+966501110001', '+966501110002', '+966501110003'].entries()) {
      assert.equal((await call(`range-${i}`, 'send-otp', { method: 'sms', phone: number })).status, 200);
    }
    // An instance that reads the balance for the first time (each reads it at most once a minute).
    await control(emulator.origin, 'PUT', 'balance', { balance: 10 });
    const another = await serve();
    await call('balance', 'config', undefined, another.origin);
    await call('balance-again', 'config', undefined, another.origin);
    another.server.close();
    await another.service.close();
    await until('both events to reach the site', async () => kept('abuse').length === 1 && kept('low_balance').length === 1, 3000, 20);
    assert.deepEqual(kept('abuse')[0]!.data, { kind: 'prefix', country: 'SA', prefix: '+966 501', sends: 3, windowSeconds: 3600 });
    assert.deepEqual(kept('low_balance')[0]!.data, { balance: 10, threshold: 1000 });
  });

  it('a site that never takes the event: tried with backoff, then given up with a log line', async () => {
    site.answerWith((res) => res.writeHead(503).end());
    const before = site.deliveries.length;
    await control(emulator.origin, 'PUT', 'balance', { balance: 1_000_000 });
    const email = 'given-up@example.com';
    await call('given-up', 'send-otp', { method: 'email', email });
    await call('given-up', 'verify-otp', { email, otp: await latestCode(emulator.origin, email) });
    await until('the event to be given up', async () => logs.some((line) => line.msg === 'webhook given up'), 8000, 50);
    const tries = site.deliveries.slice(before).map((d) => d.id);
    // At once, after 1 s and after 2 more; not after 4 more, past its 4 s.
    assert.equal(tries.length, 3);
    assert.equal(new Set(tries).size, 1);
    site.answerWith((res) => res.writeHead(204).end());
  });
});
