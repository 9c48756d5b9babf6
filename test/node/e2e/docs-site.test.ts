/**
 * The documentation site that `npm start` serves, in Chromium: every page loads without a console
 * error or a CSP violation and passes axe; every link between pages resolves; each kind of live
 * control changes the widget; the event log shows an OTP flow's events as they fire.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';
import { codeFromOutbox, cspViolations, focusCode, startDemo, untilStep, type Demo } from './demo-browser.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Opens a page and waits until its widgets and playground are built; the console's errors are kept. */
async function open(page: Page, url: string, errors: string[]): Promise<void> {
  errors.length = 0;
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() =>
    [...document.querySelectorAll<any>('otp-verify, face-verify, voice-verify')].every((w) => w.shadowRoot?.querySelector('[part~="heading"]')) &&
    [...document.querySelectorAll('.playground')].every((p) => p.querySelector('.stage > *')));
  assert.deepEqual(errors, [], `console errors on ${url}`);
  assert.deepEqual(await cspViolations(page), [], `CSP violations on ${url}`);
}

/** Axe over the whole page, shadow roots included; evaluated by DevTools, which the page's CSP does not govern. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { violations } = await (window as any).axe.run(document);
    return violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

const SLUGS = ['', 'otp-verify', 'face-verify', 'voice-verify', 'theming', 'languages', 'frameworks', 'host-handler', 'any-backend', 'receipts', 'liveness', 'handoff', 'protocol', 'service-client', 'emulator', 'benchmarks', 'development'];

/** The pages the navigation lists, read from the home page as a visitor finds them. */
async function pages(url: string): Promise<string[]> {
  const html = await (await fetch(url)).text();
  const nav = /<nav aria-label="Pages">([\s\S]*?)<\/nav>/.exec(html)![1]!;
  return [...nav.matchAll(/href="\/([^"]*)"/g)].map((m) => m[1]!);
}

describe('the documentation site', () => {
  let demo: Demo;
  const errors: string[] = [];
  before(async () => {
    demo = await startDemo();
    demo.page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url ?? ''}`);
    });
    demo.page.on('pageerror', (error) => errors.push(String(error)));
  });
  after(() => demo.close());

  it('lists its pages in the navigation', async () => {
    assert.deepEqual(await pages(demo.url), SLUGS);
  });

  for (const slug of SLUGS) {
    it(`/${slug} loads with no console error or CSP violation, and axe finds nothing`, async () => {
      await open(demo.page, `${demo.url}${slug}`, errors);
      assert.deepEqual(await axeViolations(demo.page), []);
    });
  }

  it('every link between pages resolves, to the page and to the heading it names, and every picture loads', async () => {
    const targets = new Set<string>();
    const pictures = new Set<string>();
    const slugs = await pages(demo.url);
    for (const slug of slugs) {
      const html = await (await fetch(`${demo.url}${slug}`)).text();
      for (const [, href] of html.matchAll(/href="(\/[^"]*)"/g)) targets.add(href!);
      // Pictures too: the gallery's and the theming page's, written relative to the Markdown file.
      for (const [, src] of html.matchAll(/<img src="([^"]+)"/g)) pictures.add(new URL(src!, `${demo.url}${slug}`).pathname);
    }
    assert.ok(targets.size > slugs.length, 'links found');
    for (const target of [...targets, ...pictures]) {
      const [path, hash] = target.split('#');
      const response = await fetch(new URL(path!, demo.url));
      assert.equal(response.status, 200, target);
      if (hash) assert.match(await response.text(), new RegExp(`id="${hash}"`), target);
      // Served as the picture it is (a JPEG as application/octet-stream is a download elsewhere).
      if (pictures.has(target)) assert.match(response.headers.get('content-type') ?? '', /^image\//, target);
    }
  });

  /** The live widget of the page's playground. */
  /** The stage holds an upgraded widget of that tag that has rendered. */
  const live = (page: Page, tag: string) =>
    page.evaluate((t) => {
      const element = document.querySelector(`.stage ${t}`);
      return element instanceof customElements.get(t)! && element.shadowRoot?.querySelector('[part~="base"]') != null;
    }, tag);
  const attribute = (page: Page, tag: string, name: string) => page.evaluate((t, n) => document.querySelector(`.stage ${t}`)!.getAttribute(n), tag, name);

  it('<otp-verify> controls: a checkbox, the country and language selects and the dark switch each change the widget and its markup', async () => {
    const { page } = demo;
    await open(page, `${demo.url}otp-verify`, errors);
    await page.click('input[name$="-channels"][value="whatsapp"]');
    assert.equal(await attribute(page, 'otp-verify', 'channels'), 'sms email');
    await page.waitForFunction(() => document.querySelector<any>('.stage otp-verify').shadowRoot?.querySelectorAll('input[name="method"]').length === 2);
    await page.select('select[name$="-country"]', 'AE');
    assert.equal(await attribute(page, 'otp-verify', 'country'), 'AE');
    await page.waitForFunction(() => document.querySelector<any>('.stage otp-verify').shadowRoot?.querySelector('[part~="prefix"]')?.textContent === '+971');
    await page.select('select[name$="-lang"]', 'ar');
    await page.waitForFunction(() => document.querySelector<any>('.stage otp-verify').shadowRoot?.querySelector('[part~="base"]')?.dir === 'rtl');
    await page.click('input[name$="-dark"]');
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.stage otp-verify')!).colorScheme), 'dark');
    const markup = await page.evaluate(() => document.querySelector('.code-to-copy pre')!.textContent);
    assert.match(markup!, /<otp-verify endpoint="\/api\/verify" channels="sms email" country="AE" lang="ar"><\/otp-verify>/);
    assert.match(markup!, /locales\/ar\.js/);
    assert.equal(await live(page, 'otp-verify'), true);
  });

  it('<voice-verify> controls: a number changes the digits to read', async () => {
    const { page } = demo;
    await open(page, `${demo.url}voice-verify`, errors);
    const digits = await page.$('input[name$="-digits"]');
    await digits!.click({ count: 3 });
    await digits!.type('5');
    await page.keyboard.press('Tab');
    assert.equal(await attribute(page, 'voice-verify', 'digits'), '5');
    assert.equal(await page.evaluate(() => document.querySelector<any>('.stage voice-verify').digits), 5);
  });

  it('theming controls: a color, a range and a select set custom properties on the three widgets, and the CSS says so', async () => {
    const { page } = demo;
    await open(page, `${demo.url}theming`, errors);
    for (const [selector, value, type] of [['input[name="--verify-accent"]', '#0f766e', 'input'], ['input[name="--verify-radius"]', '1.25', 'input'], ['select[name="--verify-font"]', 'Georgia, serif', 'change']]) {
      await page.$eval(selector!, (input, v, t) => {
        (input as HTMLInputElement).value = v!;
        input.dispatchEvent(new Event(t!, { bubbles: true }));
      }, value, type);
    }
    const styles = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.theming :is(otp-verify, face-verify, voice-verify)')].map((w) => [w.style.getPropertyValue('--verify-accent'), w.style.getPropertyValue('--verify-radius'), w.style.getPropertyValue('--verify-font')].join(' ')));
    assert.deepEqual(styles, Array(3).fill('#0f766e 1.25rem Georgia, serif'));
    const css = await page.evaluate(() => document.querySelector('.theming pre')!.textContent!);
    assert.match(css, /--verify-accent: #0f766e;\n {2}--verify-radius: 1\.25rem;\n {2}--verify-font: Georgia, serif;/);
    const button = await page.evaluate(() => getComputedStyle(document.querySelector<any>('.theming otp-verify').shadowRoot.querySelector('[part~="submit"]')).backgroundColor);
    assert.equal(button, 'rgb(15, 118, 110)');
  });

  it('the event log shows each event of an OTP flow as it fires, with its metrics', async () => {
    const { page } = demo;
    await open(page, `${demo.url}otp-verify`, errors);
    const email = `docs${Date.now()}@example.com`;
    const shadow = (selector: string) => page.evaluateHandle((s) => document.querySelector<any>('.stage otp-verify').shadowRoot.querySelector(s), selector);
    await page.evaluate(() => document.querySelector<any>('.stage otp-verify').shadowRoot.querySelector('input[value="email"]').click());
    await page.waitForFunction(() => document.querySelector<any>('.stage otp-verify').shadowRoot.querySelector('#email'));
    await ((await shadow('#email')) as any).type(email);
    await page.keyboard.press('Enter');
    await untilStep(page, '.stage otp-verify', 'code');
    await focusCode(page, '.stage otp-verify');
    await page.keyboard.type(await codeFromOutbox(demo, email, 5000));
    await untilStep(page, '.stage otp-verify', 'success');
    await page.waitForSelector('.events li[data-event="verify-success"]');
    const log = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.events li[data-event]')].map((li) => li.dataset.event));
    for (const name of ['verify-step-change', 'verify-request', 'verify-code-sent', 'verify-success']) assert.ok(log.includes(name), `${name} in ${log}`);
    assert.ok(log.indexOf('verify-code-sent') < log.indexOf('verify-success'));
    const success = await page.evaluate(() => document.querySelector('.events li[data-event="verify-success"] pre')!.textContent!);
    const { metrics } = JSON.parse(success);
    assert.equal(metrics.channel, 'email');
    assert.equal(metrics.attempts, 1);
    assert.equal(metrics.entry, 'typed');
    assert.doesNotMatch(success, new RegExp(email.replace('.', '\\.')));
  });
});
