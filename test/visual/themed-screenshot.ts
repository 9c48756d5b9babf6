// Saves demo/themed-otp-verify.png, the README's example of theming: custom properties and a part,
// set on the page, never inside the widget. Usage: npm run screenshots
import { fileURLToPath } from 'node:url';
import { startDemo } from '../node/e2e/demo-browser.js';

const demo = await startDemo();
try {
  const { page } = demo;
  await page.setViewport({ width: 520, height: 700, deviceScaleFactor: 1 });
  await page.waitForFunction(() => document.querySelector<any>('otp-verify')?.shadowRoot?.querySelector('#phone'));
  // Through the CSSOM: the demo's CSP refuses inline <style>, as a strict site would.
  await page.evaluate(() => {
    const theme: Record<string, string> = {
      '--verify-accent': '#0f766e',
      '--verify-accent-contrast': '#ffffff',
      '--verify-bg': '#f0fdfa',
      '--verify-border': '#5eead4',
      '--verify-radius': '1.25rem',
      '--verify-font': 'Georgia, serif',
      '--verify-box-size': '3rem',
    };
    const element = document.querySelector<HTMLElement>('otp-verify')!;
    for (const [name, value] of Object.entries(theme)) element.style.setProperty(name, value);
  });
  const phone = await page.evaluateHandle(() => document.querySelector<any>('otp-verify').shadowRoot.querySelector('#phone'));
  await (phone as any).type('50 111 2233');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector<any>('otp-verify').step === 'code');
  await page.keyboard.type('12');
  await new Promise((done) => setTimeout(done, 300));
  const file = fileURLToPath(new URL('../../demo/themed-otp-verify.png', import.meta.url)) as `${string}.png`;
  await (await page.$('otp-verify'))!.screenshot({ path: file });
  console.log(file);
} finally {
  await demo.close();
}
