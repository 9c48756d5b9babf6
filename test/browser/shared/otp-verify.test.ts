import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { fakeHost, failure, sent, verified } from '../support/fake-host.js';
import { $, codeInput, codeMessage, enterCode, otpFixture, sendTo, submitPhone, untilStep } from '../support/otp.js';
// Arabic is registered, as a page that speaks it does.
import '../../../src/locales/ar.js';

describe('<otp-verify>', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('sends to an E.164 number, then verifies a pasted code and hands over the receipt', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => verified() });
    const element = await otpFixture();
    await sendTo(element, '050 123 4567');
    expect(host.calls.find((c) => c.route === 'send-otp')!.body).to.deep.equal({ method: 'sms', phone: '+966501234567', lang: 'en' });
    const success = oneEvent(element, 'verify-success');
    enterCode(element, '123-456');
    const { detail } = await success;
    expect(detail.receipt).to.equal('receipt.token');
    expect(host.calls.find((c) => c.route === 'verify-otp')!.body).to.deep.equal({ phone: '+966501234567', otp: '123456' });
    expect(element.value).to.equal('receipt.token');
    await untilStep(element, 'success');
  });

  it('takes the digits of a pasted message', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => verified() });
    const element = await otpFixture();
    await sendTo(element);
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/plain', 'Your code is 864 209.');
    const paste = new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true });
    // WebKitGTK drops clipboardData given to the constructor; there the event carries no text.
    if (!paste.clipboardData?.getData('text')) Object.defineProperty(paste, 'clipboardData', { value: clipboardData });
    codeInput(element).dispatchEvent(paste);
    await untilStep(element, 'success');
    expect(paste.defaultPrevented).to.be.true;
    expect(host.calls.find((c) => c.route === 'verify-otp')!.body.otp).to.equal('864209');
  });

  it('turns Arabic-Indic digits into ASCII', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => verified() });
    const element = await otpFixture();
    await sendTo(element);
    enterCode(element, '١٢٣٤٥٦');
    await untilStep(element, 'success');
    expect(host.calls.find((c) => c.route === 'verify-otp')!.body.otp).to.equal('123456');
  });

  it('a wrong code shows the attempts left and keeps the field and the number', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => failure(422, 'wrong_code', { attemptsLeft: 2 }) });
    const element = await otpFixture();
    await sendTo(element, '501234567');
    const failed = oneEvent(element, 'verify-failure');
    enterCode(element, '000000');
    expect((await failed).detail).to.include({ code: 'wrong_code', attemptsLeft: 2 });
    await untilStep(element, 'code');
    expect(codeMessage(element).textContent).to.contain('2 tries left');
    expect(codeMessage(element).assignedSlot!.closest('[part~="error"]')).to.exist;
    expect(codeInput(element).value).to.equal('000000');
    $<HTMLButtonElement>(element, '.actions .link').click();
    await untilStep(element, 'contact');
    expect($<HTMLInputElement>(element, '#phone').value).to.equal('501234567');
  });

  it('resend is disabled during the cooldown the handler reports, and enabled after it', async () => {
    host = fakeHost({ 'send-otp': () => sent(1) });
    const element = await otpFixture();
    await sendTo(element);
    const resend = () => $<HTMLButtonElement>(element, '[part~="resend"]');
    expect(resend().disabled).to.be.true;
    expect(resend().textContent).to.match(/0:01/);
    await waitUntil(() => !resend().disabled, 'resend enabled', { timeout: 4000 });
    resend().click();
    await waitUntil(() => host.count('send-otp') === 2, 'a second send');
  });

  it('after too many wrong codes, shows the exhausted state, whose action sends a new code', async () => {
    host = fakeHost({ 'send-otp': () => sent(0), 'verify-otp': () => failure(429, 'too_many_attempts', { attemptsLeft: 0 }) });
    const element = await otpFixture();
    await sendTo(element);
    enterCode(element, '000000');
    await untilStep(element, 'failure');
    expect($(element, '.error').textContent).to.contain('Too many wrong codes');
    $<HTMLButtonElement>(element, '[part~="submit"]').click();
    await waitUntil(() => host.count('send-otp') === 2, 'a new code');
  });

  it('handles a 429 while sending: a countdown, then a retry', async () => {
    let first = true;
    host = fakeHost({ 'send-otp': () => (first ? ((first = false), failure(429, 'rate_limited', { retryAfter: 1 })) : sent()) });
    const element = await otpFixture();
    const error = oneEvent(element, 'verify-error');
    await submitPhone(element);
    expect((await error).detail).to.include({ code: 'rate_limited', retryAfter: 1, status: 429 });
    await untilStep(element, 'failure');
    const retry = () => $<HTMLButtonElement>(element, '[part~="submit"]');
    expect(retry().disabled).to.be.true;
    await waitUntil(() => !retry().disabled, 'retry enabled', { timeout: 4000 });
    retry().click();
    await untilStep(element, 'code');
  });

  it('retries a network failure by verifying the same code again, without sending another', async () => {
    let fail = true;
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => (fail ? ((fail = false), { network: true }) : verified()) });
    const element = await otpFixture();
    await sendTo(element);
    enterCode(element, '654321');
    await untilStep(element, 'failure');
    $<HTMLButtonElement>(element, '[part~="submit"]').click();
    await untilStep(element, 'success');
    expect(host.calls.filter((c) => c.route === 'verify-otp').map((c) => c.body.otp)).to.deep.equal(['654321', '654321']);
    expect(host.count('send-otp')).to.equal(1);
  });

  it('offers the fallback channel and goes back to contact entry with it', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    const element = await otpFixture();
    await sendTo(element);
    const fallback = [...element.shadowRoot!.querySelectorAll<HTMLButtonElement>('.actions .link')].find((b) => /Email/.test(b.textContent!))!;
    fallback.click();
    await untilStep(element, 'contact');
    expect($<HTMLInputElement>(element, '#email')).to.exist;
  });

  it('checks phone and email before sending, and suggests a fix for a likely email typo', async () => {
    host = fakeHost({});
    const element = await otpFixture('en', 'channels="email sms"');
    $<HTMLFormElement>(element, 'form').requestSubmit();
    await element.updateComplete;
    expect($(element, '.error').textContent).to.contain('email address');
    const email = $<HTMLInputElement>(element, '#email');
    email.value = 'sara@gmial.com';
    email.dispatchEvent(new Event('input'));
    await element.updateComplete;
    expect($(element, '[part~="suggestion"]').textContent).to.contain('sara@gmail.com');
    expect(email.value, 'never applied silently').to.equal('sara@gmial.com');
    $<HTMLButtonElement>(element, '[part~="suggestion"] button').click();
    await element.updateComplete;
    expect($<HTMLInputElement>(element, '#email').value).to.equal('sara@gmail.com');
    expect(host.count('send-otp')).to.equal(0);
  });

  it('lets the page add headers to every request', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    const addToken = (event: Event) => (event as CustomEvent & { detail: { headers: Headers } }).detail.headers.set('x-csrf-token', 'abc');
    document.addEventListener('verify-request', addToken, { capture: true });
    try {
      const element = await otpFixture();
      await sendTo(element);
      expect(host.calls.find((c) => c.route === 'send-otp')!.headers.get('x-csrf-token')).to.equal('abc');
    } finally {
      document.removeEventListener('verify-request', addToken, { capture: true });
    }
  });
});

describe('<otp-verify> code field', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('is one real input in the light DOM, where autofill and password managers look', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    const element = await otpFixture();
    await sendTo(element);
    const inputs = document.querySelectorAll('input[autocomplete="one-time-code"]');
    expect(inputs.length).to.equal(1);
    const input = inputs[0] as HTMLInputElement;
    expect(input.getRootNode()).to.equal(document);
    expect(input.parentElement).to.equal(element);
    expect(input.inputMode).to.equal('numeric');
    expect(input.assignedSlot?.name).to.equal('code');
    expect(document.activeElement).to.equal(input);
    const box = input.getBoundingClientRect();
    expect(box.width).to.be.greaterThan(100);
    expect(box.height).to.be.greaterThan(20);
    expect(input.getAttribute('data-1p-ignore')).to.equal('true');
    expect(input.pattern).to.equal('[0-9]{6}');
  });

  it('keeps digits left to right on a right-to-left page', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    const element = await otpFixture('ar');
    await sendTo(element);
    expect(getComputedStyle($(element, '[part~="base"]')).direction).to.equal('rtl');
    expect(getComputedStyle($(element, '[part~="code"]')).direction).to.equal('ltr');
    expect(codeInput(element).dir).to.equal('ltr');
    expect($(element, '[part~="submit"]').textContent!.trim()).to.equal('تحقّق');
  });
});

describe('<otp-verify> WebOTP', () => {
  let host: ReturnType<typeof fakeHost>;
  const originalOtp = Object.getOwnPropertyDescriptor(window, 'OTPCredential');
  const originalCredentials = Object.getOwnPropertyDescriptor(navigator, 'credentials');

  /** A browser with WebOTP whose credentials.get does `get`; WebKitGTK has no credentials at all. */
  function stubWebOtp(get: (options: CredentialRequestOptions) => Promise<unknown>) {
    Object.defineProperty(window, 'OTPCredential', { value: class {}, configurable: true });
    Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
  }

  afterEach(() => {
    host?.stop();
    if (originalOtp) Object.defineProperty(window, 'OTPCredential', originalOtp);
    else delete (window as { OTPCredential?: unknown }).OTPCredential;
    if (originalCredentials) Object.defineProperty(navigator, 'credentials', originalCredentials);
    else delete (navigator as { credentials?: unknown }).credentials;
  });

  it('asks for the SMS code where the browser has WebOTP, and aborts when the element is removed', async () => {
    const asked: { options: CredentialRequestOptions & { otp?: unknown } }[] = [];
    stubWebOtp((options) => {
      asked.push({ options });
      return new Promise((_resolve, reject) => options.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    });
    host = fakeHost({ 'send-otp': () => sent() });
    const element = await otpFixture();
    await sendTo(element);
    await waitUntil(() => asked.length === 1, 'credentials.get called');
    expect(asked[0]!.options.otp).to.deep.equal({ transport: ['sms'] });
    const signal = asked[0]!.options.signal!;
    expect(signal.aborted).to.be.false;
    element.remove();
    expect(signal.aborted).to.be.true;
  });

  it('fills and submits the code WebOTP delivers', async () => {
    stubWebOtp(async () => ({ code: '246810', type: 'otp' }));
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => verified() });
    const element = await otpFixture();
    // The code arrives at once, so the code step may pass too quickly to be seen: wait for the end.
    await submitPhone(element);
    await untilStep(element, 'success');
    expect(host.calls.find((c) => c.route === 'verify-otp')!.body.otp).to.equal('246810');
  });
});

describe('<otp-verify> in a form', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('is invalid (valueMissing) until verified when required; then the receipt is its value', async () => {
    host = fakeHost({ 'send-otp': () => sent(), 'verify-otp': () => verified() });
    const form = document.createElement('form');
    form.innerHTML = '<otp-verify endpoint="/host" country="SA" name="otp_receipt" required></otp-verify>';
    document.body.append(form);
    try {
      const element = form.querySelector('otp-verify')!;
      await element.updateComplete;
      expect(form.checkValidity()).to.be.false;
      await sendTo(element);
      enterCode(element, '123456');
      await untilStep(element, 'success');
      expect(form.checkValidity()).to.be.true;
      expect(new FormData(form).get('otp_receipt')).to.equal('receipt.token');
    } finally {
      form.remove();
    }
  });
});
