/**
 * The code field as a person uses it: real key presses (the `keys` command), real paste events,
 * and input events shaped as browsers send them for autofill (no inputType, or
 * insertReplacementText) and keyboard suggestions (insertText).
 */
import { executeServerCommand } from '@web/test-runner-commands';
import { expect, waitUntil } from '@open-wc/testing';
import { CONFIG, fakeHost, failure, sent, verified, type Answer } from '../support/fake-host.js';
import { $, codeInput, codeMessage, otpFixture, sendTo, untilStep } from '../support/otp.js';
import type { OtpVerify } from '../../../src/otp-verify/otp-verify.js';
// Arabic is registered, as a page that speaks it does.
import '../../../src/locales/ar.js';

const type = (text: string) => executeServerCommand('keys', { type: text });
const press = (keys: string) => executeServerCommand('keys', { press: keys });

/** verify-otp that takes `right` and refuses anything else, with the tries left counting down. */
function codeHost(right = '123456', sendAnswer: Answer = sent()) {
  let left = 5;
  return fakeHost({
    'send-otp': () => sendAnswer,
    'verify-otp': (body) => (body.otp === right ? verified() : failure(422, 'wrong_code', { attemptsLeft: --left })),
  });
}

function paste(element: OtpVerify, text: string): ClipboardEvent {
  const clipboardData = new DataTransfer();
  clipboardData.setData('text/plain', text);
  const event = new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true });
  // WebKitGTK drops clipboardData given to the constructor.
  if (!event.clipboardData?.getData('text')) Object.defineProperty(event, 'clipboardData', { value: clipboardData });
  codeInput(element).dispatchEvent(event);
  return event;
}

/** What an autofill does to the field: the whole value set, then one input event. */
function autofill(element: OtpVerify, value: string, inputType?: string) {
  const input = codeInput(element);
  input.value = value;
  input.dispatchEvent(inputType ? new InputEvent('input', { bubbles: true, inputType, data: value }) : new Event('input', { bubbles: true }));
}

const verifyCalls = (host: ReturnType<typeof fakeHost>) => host.calls.filter((c) => c.route === 'verify-otp').map((c) => c.body.otp);

async function wrongCodeFirst(host: ReturnType<typeof fakeHost>) {
  const element = await otpFixture();
  await sendTo(element);
  expect(document.activeElement).to.equal(codeInput(element));
  await type('000000');
  await waitUntil(() => element.step === 'code' && verifyCalls(host).length === 1, 'the wrong code refused');
  await element.updateComplete;
  return element;
}

describe('<otp-verify> code entry after a wrong code', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  // Each way a right code arrives after a wrong one: verified, with exactly two verify requests.
  const rightCodeBy: [string, (element: OtpVerify) => unknown][] = [
    ['typed', () => type('123456')],
    ['pasted: a message over the wrong code', (element) => paste(element, 'Your code is 123456')],
    ['autofill (no inputType)', (element) => autofill(element, '123456')],
    ['"From Messages" (insertReplacementText)', (element) => autofill(element, '123456', 'insertReplacementText')],
    ['a keyboard suggestion (insertText of the whole code at the caret)', (element) => {
      const input = codeInput(element);
      input.value = '000000123456';
      input.setSelectionRange(12, 12);
      input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: '123456' }));
    }],
  ];
  for (const [name, enter] of rightCodeBy) {
    it(`${name}: the right code verifies, with exactly two verify requests`, async () => {
      host = codeHost();
      const element = await wrongCodeFirst(host);
      await enter(element);
      await untilStep(element, 'success');
      expect(verifyCalls(host)).to.deep.equal(['000000', '123456']);
    });
  }

  it('one more key never sends the wrong code again: it starts a new code', async () => {
    host = codeHost();
    const element = await wrongCodeFirst(host);
    await type('1');
    await element.updateComplete;
    expect(codeInput(element).value).to.equal('1');
    expect(element.step).to.equal('code');
    expect(verifyCalls(host)).to.deep.equal(['000000']);
  });

  it('the same code goes again only when the person asks (Enter)', async () => {
    host = codeHost();
    const element = await wrongCodeFirst(host);
    await press('Backspace');
    await type('0');
    await element.updateComplete;
    expect(verifyCalls(host), 'not re-sent on its own').to.deep.equal(['000000']);
    await press('Enter');
    await waitUntil(() => verifyCalls(host).length === 2, 'sent when asked');
    expect(verifyCalls(host), 'the same code, as typed').to.deep.equal(['000000', '000000']);
  });

  it('the error describes the field, with the tries left counted in the language', async () => {
    host = codeHost();
    const element = await wrongCodeFirst(host);
    const input = codeInput(element);
    const described = document.getElementById(input.getAttribute('aria-describedby')!)!;
    expect(described).to.equal(codeMessage(element));
    expect(described.textContent).to.equal('That code isn’t right. 4 tries left.');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    for (const code of ['111111', '222222', '333333']) {
      await press('Control+a');
      await type(code);
      await waitUntil(() => verifyCalls(host).at(-1) === code && element.step === 'code', `${code} refused`);
    }
    await element.updateComplete;
    expect(codeMessage(element).textContent).to.equal('That code isn’t right. 1 try left.');
  });
});

describe('<otp-verify> code field editing', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  async function typed(text: string) {
    host = codeHost();
    const element = await otpFixture();
    await sendTo(element);
    await type(text);
    await element.updateComplete;
    return element;
  }
  const boxes = (element: OtpVerify) => [...element.shadowRoot!.querySelectorAll('[part~="digit"]')];
  const classed = (element: OtpVerify, name: string) => boxes(element).flatMap((box, i) => (box.classList.contains(name) ? [i] : []));

  it('select-all then type replaces, and the boxes show the selection', async () => {
    const element = await typed('1234');
    await press('Control+a');
    await element.updateComplete;
    expect(classed(element, 'selected')).to.deep.equal([0, 1, 2, 3]);
    await type('9');
    await element.updateComplete;
    expect(codeInput(element).value).to.equal('9');
    expect(classed(element, 'active')).to.deep.equal([1]);
  });

  it('arrow-left then Backspace corrects a digit in the middle; the caret box follows', async () => {
    const element = await typed('1234');
    await press('ArrowLeft');
    await element.updateComplete;
    expect(classed(element, 'active')).to.deep.equal([3]);
    await press('Backspace');
    await type('7');
    await element.updateComplete;
    expect(codeInput(element).value).to.equal('1274');
    expect(codeInput(element).selectionStart).to.equal(3);
  });

  it('Home then Delete, End, Shift+Home behave as in a text input', async () => {
    const element = await typed('1234');
    await press('Home');
    await press('Delete');
    await element.updateComplete;
    expect(codeInput(element).value).to.equal('234');
    expect(classed(element, 'active')).to.deep.equal([0]);
    await press('End');
    await type('5');
    expect(codeInput(element).value).to.equal('2345');
    await press('Shift+Home');
    await element.updateComplete;
    expect(classed(element, 'selected')).to.deep.equal([0, 1, 2, 3]);
    await type('6');
    expect(codeInput(element).value).to.equal('6');
  });

  it('letters are dropped and a seventh digit is refused, as maxlength would', async () => {
    const element = await typed('12a3');
    expect(codeInput(element).value).to.equal('123');
    host.calls.length = 0;
    // A paste cut to fit fills the field and is not sent on its own (the person sees it was cut)...
    paste(element, '4567');
    await element.updateComplete;
    expect(codeInput(element).value).to.equal('123456');
    // ...so the field is full, in focus and still on the code step when the seventh digit is typed.
    await type('7');
    await element.updateComplete;
    expect([codeInput(element).value, element.step, verifyCalls(host)]).to.deep.equal(['123456', 'code', []]);
    await press('Enter');
    await waitUntil(() => verifyCalls(host).length === 1, 'sent when asked');
    expect(verifyCalls(host)).to.deep.equal(['123456']);
  });

  it('Enter with digits missing says so under the field, and sends nothing', async () => {
    const element = await typed('12');
    await press('Enter');
    await element.updateComplete;
    expect(codeMessage(element).textContent).to.equal('Enter all the digits of the code.');
    expect(codeInput(element).getAttribute('aria-describedby')).to.equal(codeMessage(element).id);
    expect($(element, '[part~="error"] slot')).to.exist;
    expect(verifyCalls(host)).to.deep.equal([]);
    await type('3');
    await element.updateComplete;
    expect(codeInput(element).hasAttribute('aria-describedby'), 'gone once the field changes').to.be.false;
  });

  it('the Verify button says the same as Enter', async () => {
    const element = await typed('12');
    $<HTMLButtonElement>(element, '[part~="submit"]').click();
    await element.updateComplete;
    expect(codeMessage(element).textContent).to.equal('Enter all the digits of the code.');
  });
});

describe('<otp-verify> paste takes the code, not all the digits', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('"Order 42: your code is 123456" gives 123456', async () => {
    host = codeHost();
    const element = await otpFixture();
    await sendTo(element);
    const event = paste(element, 'Order 42: your code is 123456');
    expect(event.defaultPrevented).to.be.true;
    await untilStep(element, 'success');
    expect(verifyCalls(host)).to.deep.equal(['123456']);
  });

  it('with no length from the host, the emulator\u2019s own SMS gives its code, and Verify sends just that', async () => {
    host = codeHost('907312', { body: { ...sent().body, codeLength: null } });
    const config = { ...CONFIG, codeLength: null };
    const answerConfig = (event: Event) => {
      const request = event as Event & { detail: { route: string }; response?: Promise<Response> };
      if (request.detail.route !== 'config') return;
      event.preventDefault();
      event.stopImmediatePropagation();
      request.response = Promise.resolve(Response.json(config));
    };
    document.addEventListener('verify-request', answerConfig, { capture: true });
    try {
      const element = await otpFixture();
      await sendTo(element);
      paste(element, 'Your verification code is 907312. It expires in 10 minutes.');
      await element.updateComplete;
      expect(codeInput(element).value).to.equal('907312');
      $<HTMLButtonElement>(element, '[part~="submit"]').click();
      await untilStep(element, 'success');
      expect(verifyCalls(host)).to.deep.equal(['907312']);
    } finally {
      document.removeEventListener('verify-request', answerConfig, { capture: true });
    }
  });

  it('a part of a code pasted at the caret is inserted, within the code length', async () => {
    host = codeHost();
    const element = await otpFixture();
    await sendTo(element);
    await type('12');
    paste(element, '34');
    await element.updateComplete;
    expect(codeInput(element).value).to.equal('1234');
    expect(verifyCalls(host)).to.deep.equal([]);
  });
});

describe('<otp-verify> after a reload', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('goes straight to the code the handler says this session awaits; {otp} alone verifies, {resend} asks again', async () => {
    const pending = { method: 'sms', to: '+966••••••890', resendAfter: 1 };
    host = fakeHost({
      config: () => ({ body: { ...CONFIG, pending } }),
      'verify-otp': (body) => (body.otp === '123456' ? verified() : failure(422, 'wrong_code', { attemptsLeft: 4 })),
      'send-otp': () => ({ body: { ...sent().body, to: pending.to } }),
    });
    const element = await otpFixture();
    await untilStep(element, 'code');
    expect($(element, '[part~="message"]').textContent).to.contain('+966••••••890');
    const resend = () => $<HTMLButtonElement>(element, '[part~="resend"]');
    expect(resend().disabled, 'the true wait').to.be.true;
    await waitUntil(() => !resend().disabled, 'resend allowed after the wait', { timeout: 4000 });
    resend().click();
    await waitUntil(() => host.count('send-otp') === 1);
    expect(host.calls.find((c) => c.route === 'send-otp')!.body).to.deep.equal({ resend: true, lang: 'en' });
    await untilStep(element, 'code');
    await type('123456');
    await untilStep(element, 'success');
    expect(host.calls.find((c) => c.route === 'verify-otp')!.body).to.deep.equal({ otp: '123456' });
  });

  it('stays on the form when nothing is pending', async () => {
    host = fakeHost({});
    const element = await otpFixture();
    await waitUntil(() => host.count('config') === 1);
    await element.updateComplete;
    expect(element.step).to.equal('contact');
  });
});

describe('<otp-verify> phone typed in Arabic digits', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('a typed +٩٧١… switches the country and is sent as the same E.164 as its ASCII twin', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    const element = await otpFixture('ar');
    await element.configLoaded; // the calling codes a dialed + is matched against
    const phone = $<HTMLInputElement>(element, '#phone');
    phone.focus();
    await type('+٩٧١٥٠١٢٣٤٥٦٧');
    await element.updateComplete;
    expect($<HTMLSelectElement>(element, '#country').value).to.equal('AE');
    $<HTMLFormElement>(element, 'form').requestSubmit();
    await untilStep(element, 'code');
    expect(host.calls.find((c) => c.route === 'send-otp')!.body.phone).to.equal('+971501234567');
  });

  it('the dial codes in the Arabic country list keep their order', async () => {
    host = fakeHost({});
    const element = await otpFixture('ar');
    // The codes come with the handler's config.
    await element.configLoaded;
    await element.updateComplete;
    const option = $<HTMLSelectElement>(element, '#country').selectedOptions[0]!;
    expect(option.textContent).to.contain('(\u2066+966\u2069)');
  });
});

describe('<otp-verify> country picker', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('first holds the chosen country alone; focused, it offers every country, sorted by name in the page’s language', async () => {
    host = fakeHost({});
    const element = Object.assign(document.createElement('otp-verify'), { endpoint: '/host', country: 'EG' });
    document.body.append(element);
    await element.updateComplete;
    const picker = $<HTMLSelectElement>(element, '#country');
    expect([...picker.options].map((o) => o.value)).to.deep.equal(['EG']);
    picker.focus();
    await waitUntil(() => picker.options.length > 200, 'every country, once the handler has said their calling codes');
    const names = [...picker.options].map((o) => o.textContent!.replace(/\s*\(.*$/, '').trim());
    expect(names).to.deep.equal([...names].sort(new Intl.Collator('en').compare));
    expect(picker.value).to.equal('EG');
    element.remove();
  });

  it('a digit typed in the phone field leaves the options alone; a dialed code moves the choice', async () => {
    host = fakeHost({});
    const element = await otpFixture('en');
    await element.configLoaded;
    const picker = $<HTMLSelectElement>(element, '#country');
    picker.focus();
    await element.updateComplete;
    const first = picker.options[10]!;
    expect(first).to.exist;
    const phone = $<HTMLInputElement>(element, '#phone');
    phone.focus();
    await type('50123');
    await element.updateComplete;
    expect(picker.options[10]).to.equal(first);
    phone.value = '';
    phone.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await type('+20');
    await element.updateComplete;
    expect(picker.value).to.equal('EG');
    expect(picker.options.length).to.be.greaterThan(200);
  });

  it('before the handler has said the calling codes, the country shows without one, and a number sent waits for them', async () => {
    host = fakeHost({ 'send-otp': () => sent() });
    let answer: (() => void) | undefined;
    const late = (event: Event) => {
      const request = event as Event & { detail: { route: string }; response?: Promise<Response> };
      if (request.detail.route !== 'config') return;
      request.response = new Promise((resolve) => (answer = () => resolve(new Response(JSON.stringify(CONFIG), { headers: { 'content-type': 'application/json' } }))));
    };
    document.addEventListener('verify-request', late);
    try {
      const element = await otpFixture();
      await waitUntil(() => answer, 'config asked');
      const picker = $<HTMLSelectElement>(element, '#country');
      expect([...picker.options].map((o) => o.value)).to.deep.equal(['SA']);
      expect(picker.options[0]!.textContent, 'no calling code yet').not.to.contain('+');
      expect($(element, '[part~="prefix"]').textContent).to.equal('+');
      $(element, '#phone').focus();
      await type('050 123 4567');
      // The form decides at once, within requestSubmit: send, refuse the number, or wait for the
      // codes. So what shows after the render that follows is its decision, not a race with a clock.
      $<HTMLFormElement>(element, 'form').requestSubmit();
      await element.updateComplete;
      expect([element.step, host.count('send-otp'), $(element, '#phone').getAttribute('aria-invalid')]).to.deep.equal(['contact', 0, 'false']);
      answer!();
      await untilStep(element, 'code');
      expect(host.calls.find((c) => c.route === 'send-otp')!.body.phone).to.equal('+966501234567');
    } finally {
      document.removeEventListener('verify-request', late);
    }
  });

  it('when the handler gives no config, a number typed with its +code still goes, and a national one says what is missing', async () => {
    host = fakeHost({ config: () => ({ network: true }), 'send-otp': () => sent() });
    const element = await otpFixture();
    await element.configLoaded;
    const phone = $<HTMLInputElement>(element, '#phone');
    phone.focus();
    await type('0501234567');
    $<HTMLFormElement>(element, 'form').requestSubmit();
    await waitUntil(() => $(element, '[part~="error"]')?.textContent?.includes('with its country'), 'the field says why');
    expect(host.count('send-otp')).to.equal(0);
    phone.value = '';
    phone.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await type('+966 50 123 4567');
    $<HTMLFormElement>(element, 'form').requestSubmit();
    await untilStep(element, 'code');
    expect(host.calls.find((c) => c.route === 'send-otp')!.body.phone).to.equal('+966501234567');
  });
});
