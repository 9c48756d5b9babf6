/**
 * Faults between the widget and its host lose the person nothing: a send that may have gone out
 * lets its code be entered, no call waits forever, and a photo or recording that never got an
 * answer is sent again as it was, without the camera or microphone.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { fakeHost, failure, verified } from '../support/fake-host.js';
import { $, codeInput, enterCode, otpFixture, submitPhone, untilStep } from '../support/otp.js';
import { faceButton, faceFixture, shootAndSend, untilFaceStep } from '../support/face.js';
import { untilVoiceStep, voiceButton, voiceFixture, voiceText } from '../support/voice.js';
import { restoreGetUserMedia } from '../support/media.js';
import type { VerifyRequestEvent } from '../../../src/events/request.js';

/** The requests the widgets start, as the page sees them (before any fetch), and when each was told to stop. */
function requestsSeen() {
  const seen: (VerifyRequestEvent['detail'] & { waitedMs?: number })[] = [];
  const listener = (event: Event) => {
    const started = performance.now();
    const request: (typeof seen)[number] = (event as VerifyRequestEvent).detail;
    request.signal.addEventListener('abort', () => (request.waitedMs = performance.now() - started));
    seen.push(request);
  };
  document.addEventListener('verify-request', listener);
  return { seen, of: (route: string) => seen.filter((r) => r.route === route), stop: () => document.removeEventListener('verify-request', listener) };
}

/**
 * The request for `route` was given up at the widget's `request-timeout`: not before it, and within
 * a generous ceiling on a loaded machine (the figure is printed).
 */
function expectGivenUpAt(requests: ReturnType<typeof requestsSeen>, route: string, timeoutMs: number) {
  const waited = requests.of(route)[0]!.waitedMs;
  console.log(`${route}: given up after ${waited?.toFixed(0)} ms (request-timeout ${timeoutMs})`);
  expect(waited, `${route} was never given up`).to.be.a('number');
  expect(waited).to.be.within(timeoutMs - 5, timeoutMs * 2 + 200);
}

/** Counts camera and microphone openings from here on. */
function countDeviceOpenings() {
  const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  const counter = { count: 0 };
  navigator.mediaDevices.getUserMedia = (constraints) => (counter.count++, original(constraints));
  return counter;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const buttonTexts = (element: Element) => [...element.shadowRoot!.querySelectorAll('button')].map((b) => b.textContent!.trim());

describe('faults between widget and host', function () {
  this.timeout(40_000);
  let host: ReturnType<typeof fakeHost> | undefined;
  let requests: ReturnType<typeof requestsSeen>;
  restoreGetUserMedia();
  beforeEach(() => (requests = requestsSeen()));
  afterEach(() => {
    host?.stop();
    host = undefined;
    requests.stop();
  });

  it('a send the handler may have made offers code entry, keeps the number, and offers another code after the true wait', async () => {
    host = fakeHost({ 'send-otp': () => failure(504, 'upstream_unavailable', { maybeSent: true, retryAfter: 2 }), 'verify-otp': () => verified() });
    const element = await otpFixture();
    const error = oneEvent(element, 'verify-error');
    await submitPhone(element, '050 123 4567');
    await untilStep(element, 'code');
    expect((await error).detail).to.include({ code: 'upstream_unavailable', status: 504 });
    const message = $(element, '[part~="message"]').textContent!;
    expect(message).to.contain('If a code arrives, enter it here').and.contain('+966501234567');
    expect($(element, '[part~="error"]'), 'nothing is wrong with the code').to.equal(null);
    const resend = () => $<HTMLButtonElement>(element, '[part~="resend"]');
    expect(resend().disabled).to.be.true;
    await waitUntil(() => !resend().disabled, 'another code may be asked for once the cooldown ends', { timeout: 4000 });
    enterCode(element, '123456');
    await untilStep(element, 'success');
    expect(host.calls.find((c) => c.route === 'verify-otp')!.body).to.deep.equal({ phone: '+966501234567', otp: '123456' });
    expect(host.count('send-otp'), 'never sent twice').to.equal(1);
  });

  it('no call waits past request-timeout: an unanswered send offers code entry, an unanswered verify offers to try the same code', async () => {
    let answerVerify = false;
    host = fakeHost({ 'send-otp': () => ({ pending: true }), 'verify-otp': () => (answerVerify ? verified() : { pending: true }) });
    const element = await otpFixture('en', 'request-timeout="400"');
    await submitPhone(element);
    await untilStep(element, 'code');
    // The page's own request is told to stop, at the timeout.
    expectGivenUpAt(requests, 'send-otp', 400);
    expect($(element, '[part~="message"]').textContent).to.contain('If a code arrives');
    // The widget cannot know the handler's wait: asking again is allowed, and the handler decides.
    expect($<HTMLButtonElement>(element, '[part~="resend"]').disabled).to.be.false;
    enterCode(element, '654321');
    await untilStep(element, 'failure');
    expectGivenUpAt(requests, 'verify-otp', 400);
    expect(buttonTexts(element)).to.include('Try again');
    answerVerify = true;
    $<HTMLButtonElement>(element, '[part~="submit"]').click();
    await untilStep(element, 'success');
    expect(requests.of('verify-otp').map((r) => (r.body as { otp: string }).otp)).to.deep.equal(['654321', '654321']);
    expect(codeInput(element).value).to.equal('654321');
  });

  it('a face upload cut mid-request, then Try again: the same image reaches the handler, one request per press, no camera', async () => {
    const key = `cut-${Math.random().toString(36).slice(2)}`;
    const element = await faceFixture(`endpoint="/cut-host/${key}" manual`);
    await waitUntil(() => requests.of('config').length > 0 && !element.shadowRoot!.querySelector('[aria-busy="true"]'), 'config');
    await shootAndSend(element, 'failure');
    expect(buttonTexts(element)).to.include.members(['Try again', 'Retake']);
    const cameras = countDeviceOpenings();
    await fetch(`/cut-host/${key}/heal`, { method: 'POST' });
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'success');
    const log = (await (await fetch(`/cut-host/${key}/log`)).json()) as { cut: boolean; bytes?: number; sha256?: string }[];
    const sent = requests.of('verify-by-face').map((r) => (r.body as { query_face_image: string }).query_face_image);
    expect(sent.length, 'one request per press').to.equal(2);
    expect(sent[1]).to.equal(sent[0]);
    // Chromium and Firefox re-send a POST whose reused connection was reset, on their own and
    // unseen by the page (7 arrivals for one press here): all of them met the outage.
    expect(log.filter((l) => l.cut).length, 'the first press was cut').to.be.at.least(1);
    expect(log.filter((l) => !l.cut).map((l) => l.sha256)).to.deep.equal([await sha256(sent[0]!)]);
    expect(cameras.count, 'the camera stays closed').to.equal(0);
    expect(element.value).to.equal('face.receipt');
  });

  it('an unanswered face upload ends at request-timeout, and Retake still opens the camera', async () => {
    host = fakeHost({ 'verify-by-face': () => ({ pending: true }) });
    const element = await faceFixture('manual request-timeout="400"');
    await shootAndSend(element, 'failure');
    expectGivenUpAt(requests, 'verify-by-face', 400);
    const cameras = countDeviceOpenings();
    [...element.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === 'Retake')!.click();
    await untilFaceStep(element, 'preview');
    expect(cameras.count).to.equal(1);
  });

  it('a voice upload that meets a 503 keeps the recording: Try again sends it again, without the microphone', async function () {
    // Only Chromium's microphone plays speech (a fixture); elsewhere the gate refuses a tone.
    if (!window.FEED) this.skip();
    let down = true;
    host = fakeHost({ 'verify-by-voice': () => (down ? failure(503, 'upstream_unavailable') : { body: { verified: true, method: 'voice', receipt: 'voice.receipt', expiresAt: null } }) });
    const element = await voiceFixture('max-duration="3"');
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'ready');
    voiceButton(element, 'record').click();
    await untilVoiceStep(element, 'review', 20_000);
    expect(voiceText(element, 'error')).to.equal('');
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'failure');
    expect(buttonTexts(element)).to.include.members(['Try again', 'Record again']);
    const microphones = countDeviceOpenings();
    down = false;
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'success');
    const sent = host.calls.filter((c) => c.route === 'verify-by-voice').map((c) => c.body.query_audio);
    expect(sent.length).to.equal(2);
    expect(sent[1]).to.equal(sent[0]);
    expect(microphones.count).to.equal(0);
  });
});
