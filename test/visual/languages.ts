// The languages page's pictures: every step of the three widgets at a 320 px phone's width, one
// sheet per language, from what `npm run screenshots:languages` saved in test/screenshots/*-320/.
// The sheet is laid out as a page and shot by Chromium as WebP (a tenth of the PNGs' size, with
// text still sharp), to demo/gallery/languages/<lang>.webp, and listed in demo/pages/languages.md
// between its screens markers.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openBrowser } from '../node/e2e/demo-browser.js';
import { LANGUAGES } from './shoot.js';

const repo = new URL('../../', import.meta.url);
const out = new URL('demo/gallery/languages/', repo);
const WIDGETS = ['otp-verify', 'face-verify', 'voice-verify'];
const NAMES: Record<string, string> = { en: 'English', ar: 'Arabic', ur: 'Urdu', fa: 'Persian', hi: 'Hindi', bn: 'Bengali', fil: 'Filipino', id: 'Indonesian', fr: 'French', tr: 'Turkish' };

/** A widget's steps in `lang`, in the order they were shot (the order the widget reaches them). */
function steps(widget: string, lang: string): { step: string; file: string }[] {
  const dir = fileURLToPath(new URL(`test/screenshots/${widget}-320/`, repo));
  const prefix = `${lang}-light-`;
  const files = readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.png') && !f.includes('FAILED'));
  if (files.length === 0) throw new Error(`no ${lang} screenshots of <${widget}> in ${dir}: run npm run screenshots:languages`);
  return files
    .map((f) => ({ step: f.slice(prefix.length, -4), file: `${dir}${f}`, at: statSync(`${dir}${f}`).mtimeMs }))
    .sort((a, b) => a.at - b.at);
}

const sheet = (lang: string) => `<!doctype html><meta charset="utf-8"><style>
  body { margin: 0; padding: 16px; background: #f4f4f6; font: 13px system-ui, sans-serif; color: #333; width: max-content; }
  h2 { font-size: 15px; margin: 8px 0; }
  .row { display: grid; grid-template-columns: repeat(6, 232px); gap: 12px; align-items: start; margin-bottom: 16px; }
  figure { margin: 0; } figcaption { margin-top: 4px; font-family: ui-monospace, monospace; }
</style>
${WIDGETS.map((widget) => `<h2>&lt;${widget}&gt; in ${NAMES[lang]}</h2><div class="row">${steps(widget, lang)
  .map(({ step, file }) => `<figure><img src="file://${file}"><figcaption>${step}</figcaption></figure>`)
  .join('')}</div>`).join('\n')}`;

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const html = fileURLToPath(new URL('test/screenshots/languages.html', repo));
const { page, close } = await openBrowser('about:blank');
const figures: string[] = [];
try {
  await page.setViewport({ width: 1600, height: 900, deviceScaleFactor: 1 });
  for (const lang of LANGUAGES) {
    writeFileSync(html, sheet(lang));
    await page.goto(`file://${html}`, { waitUntil: 'load' });
    const { width, height } = await page.evaluate(() => ({ width: document.body.scrollWidth, height: document.body.scrollHeight }));
    const file = new URL(`${lang}.webp`, out);
    await page.screenshot({ path: fileURLToPath(file) as `${string}.webp`, type: 'webp', quality: 75, clip: { x: 0, y: 0, width, height } });
    const kb = Math.round(readFileSync(file).length / 1024);
    console.log(`${lang}.webp ${width}×${height}, ${kb} KB`);
    const caption = `Every step of the three widgets in ${NAMES[lang]}, 320 px wide`;
    figures.push(`<details><summary>${NAMES[lang]} (<code>${lang}</code>)</summary><img src="../gallery/languages/${lang}.webp" alt="${caption}" width="${width}" height="${height}" loading="lazy" /></details>`);
  }
} finally {
  await close();
}

const index = new URL('demo/pages/languages.md', repo);
const text = readFileSync(index, 'utf8');
if (!text.includes('<!-- screens:start -->')) throw new Error('demo/pages/languages.md has no screens markers');
writeFileSync(index, text.replace(/<!-- screens:start -->[\s\S]*?<!-- screens:end -->/, ['<!-- screens:start -->', ...figures, '<!-- screens:end -->'].join('\n')));
