import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, hashIdentifier, verifyReceipt } from '../../../src/server/index.js';
import { signReceipt, type ReceiptClaims } from '../../../src/server/receipts.js';

const SECRET = 'receipt-test-secret-0123456789abcdefgh';
const now = Math.floor(Date.now() / 1000);
const claims = (over: Partial<ReceiptClaims> = {}): ReceiptClaims => ({ jti: crypto.randomUUID(), sub: 'alice', mth: 'face', iat: now, exp: now + 120, ...over });

describe('receipts', () => {
  it('accepts a good receipt once, then refuses the replay', async () => {
    const store = new MemoryStore();
    const token = await signReceipt(claims(), SECRET);
    assert.equal((await verifyReceipt(token, { secret: SECRET, store, anyUser: true })).sub, 'alice');
    await assert.rejects(verifyReceipt(token, { secret: SECRET, store, anyUser: true }), { name: 'ReceiptError', reason: 'replayed' });
  });

  it('refuses an expired receipt', async () => {
    const token = await signReceipt(claims({ iat: now - 600, exp: now - 300 }), SECRET);
    await assert.rejects(verifyReceipt(token, { secret: SECRET, store: new MemoryStore(), anyUser: true }), { reason: 'expired' });
  });

  it('refuses a forged receipt: claims changed, signature kept', async () => {
    const token = await signReceipt(claims(), SECRET);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify(claims({ sub: 'mallory' }))).toString('base64url')}.${signature}`;
    await assert.rejects(verifyReceipt(forged, { secret: SECRET, store: new MemoryStore(), anyUser: true }), { reason: 'bad_signature' });
  });

  it('refuses a receipt signed with another secret', async () => {
    const token = await signReceipt(claims(), 'another-secret-another-secret-0123456789');
    await assert.rejects(verifyReceipt(token, { secret: SECRET, store: new MemoryStore(), anyUser: true }), { reason: 'bad_signature' });
  });

  it('refuses garbage', async () => {
    for (const token of ['', 'abc', 'a.b.c', 'a.b', '.', '..', 42, null, 'x'.repeat(5000), '!!!.???.!!!']) {
      await assert.rejects(verifyReceipt(token, { secret: SECRET, store: new MemoryStore(), anyUser: true }), { name: 'ReceiptError' });
    }
  });

  it('is bound to user, method and identifier when asked', async () => {
    const store = new MemoryStore();
    const otp = await signReceipt(claims({ mth: 'otp', idh: await hashIdentifier('+966501234567', SECRET) }), SECRET);
    await assert.rejects(verifyReceipt(otp, { secret: SECRET, store, user: 'bob' }), { reason: 'wrong_user' });
    await assert.rejects(verifyReceipt(otp, { secret: SECRET, store, method: 'voice', anyUser: true }), { reason: 'wrong_method' });
    await assert.rejects(verifyReceipt(otp, { secret: SECRET, store, identifier: '+966509999999', anyUser: true }), { reason: 'wrong_identifier' });
    // A refusal does not use the receipt up.
    assert.equal((await verifyReceipt(otp, { secret: SECRET, store, user: 'alice', method: 'otp', identifier: '+966501234567' })).mth, 'otp');
  });

  it('has one accepted spelling: strict base64url, no padding, no whitespace, no other bits', async () => {
    const token = await signReceipt(claims(), SECRET);
    const [header, claimsPart, signature] = token.split('.') as [string, string, string];
    const payload = `${header}.${claimsPart}`;
    // 43 letters carry 258 bits for a 32-byte signature: flipping a spare bit spells the same bytes otherwise.
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const alias = signature.slice(0, -1) + ALPHABET[ALPHABET.indexOf(signature.at(-1)!) ^ 1];
    assert.ok(Buffer.from(alias, 'base64url').equals(Buffer.from(signature, 'base64url')));
    // (The +/ spelling is the token itself when the signature holds neither - nor _.)
    for (const spelling of [`${payload}.${signature}=`, `${header}.${claimsPart}=.${signature}`, ` ${token}`, `${token}\n`, `${payload}.${signature.replace(/-/g, '+').replace(/_/g, '/')}`, `${payload}.${alias}`].filter((s) => s !== token)) {
      await assert.rejects(verifyReceipt(spelling, { secret: SECRET, store: new MemoryStore(), anyUser: true }), { name: 'ReceiptError' }, JSON.stringify(spelling));
    }
    assert.equal((await verifyReceipt(token, { secret: SECRET, store: new MemoryStore(), anyUser: true })).sub, 'alice');
  });

  it('is refused unless the caller says whose it must be (user or session), or anyUser', async () => {
    const token = await signReceipt(claims(), SECRET);
    await assert.rejects(verifyReceipt(token, { secret: SECRET, store: new MemoryStore() }), TypeError);
  });

  it('binds a guest’s receipt to its session: the id the host’s getSessionId returns', async () => {
    const store = new MemoryStore();
    const guest = await signReceipt(claims({ sub: `session:${await hashIdentifier('session:sid-1', SECRET)}`, mth: 'otp' }), SECRET);
    await assert.rejects(verifyReceipt(guest, { secret: SECRET, store, session: 'sid-2' }), { reason: 'wrong_user' });
    assert.equal((await verifyReceipt(guest, { secret: SECRET, store, session: 'sid-1', method: 'otp' })).mth, 'otp');
  });

  it('is a standard HS256 JWT: refused when signed with another algorithm or none', async () => {
    const token = await signReceipt(claims(), SECRET);
    const [header, body] = token.split('.') as [string, string, string];
    assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' });
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`;
    await assert.rejects(verifyReceipt(none, { secret: SECRET, store: new MemoryStore(), anyUser: true }), { reason: 'malformed' });
    const { createHmac } = await import('node:crypto');
    const hs512Header = Buffer.from(JSON.stringify({ alg: 'HS512', typ: 'JWT' })).toString('base64url');
    const hs512 = `${hs512Header}.${body}.${createHmac('sha512', SECRET).update(`${hs512Header}.${body}`).digest('base64url')}`;
    await assert.rejects(verifyReceipt(hs512, { secret: SECRET, store: new MemoryStore(), anyUser: true }), { reason: 'malformed' });
  });

  it('is checked by a stock JWT library of another language (PyJWT), with the same claims', async () => {
    const { execFileSync } = await import('node:child_process');
    const made = claims({ mth: 'otp', idh: await hashIdentifier('+966501234567', SECRET) });
    const token = await signReceipt(made, SECRET);
    const script = "import json, sys, jwt; print(json.dumps(jwt.decode(sys.argv[1], sys.argv[2], algorithms=['HS256'])))";
    const decoded = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, token, SECRET], { encoding: 'utf8' }));
    assert.deepEqual(decoded, made);
    // The same library refuses it under another secret.
    assert.throws(() => execFileSync('/usr/bin/python3', ['-c', script, token, 'another-secret-another-secret-0123456789'], { stdio: 'pipe' }), /InvalidSignatureError/);
  });

  it('refuses a secret under 32 bytes, even for a receipt it signed', async () => {
    for (const secret of ['short', 'x'.repeat(31)]) {
      const token = await signReceipt(claims(), 'x'.repeat(32));
      await assert.rejects(verifyReceipt(token, { secret, store: new MemoryStore(), anyUser: true }), { name: 'TypeError', message: /at least 32 bytes/ });
    }
    // The boundary: 32 bytes are enough.
    const token = await signReceipt(claims(), 'x'.repeat(32));
    assert.equal((await verifyReceipt(token, { secret: 'x'.repeat(32), store: new MemoryStore(), anyUser: true })).sub, 'alice');
  });
});
