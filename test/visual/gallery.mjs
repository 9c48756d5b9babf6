// The home page's gallery and the README's picture, chosen from what the screenshot scripts saved
// in test/screenshots/ (`npm run gallery` runs them first): some steps of each widget, in English
// light and Arabic dark, copied to demo/gallery/ (photos as JPEG, the rest as PNG, to keep the
// repository small), and listed in demo/pages/index.md between its gallery markers.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

const repo = new URL('../../', import.meta.url);
const shots = new URL('test/screenshots/', repo);
const out = new URL('demo/gallery/', repo);
const VARIANTS = [['en-light', 'English, light'], ['ar-dark', 'Arabic, dark']];
const STEPS = {
  'otp-verify': [['contact', 'the contact'], ['code-wrong', 'a wrong code'], ['success', 'verified'], ['failure', 'stopped, with a way on']],
  'face-verify': [['priming', 'before the camera'], ['review', 'the photo to use or retake'], ['failure-denied', 'a blocked camera'], ['success-verified', 'verified']],
  'voice-verify': [['recording', 'recording, with the meter'], ['review', 'the recording to use or redo'], ['failure-denied', 'a blocked microphone'], ['success-verified', 'verified']],
};
/** Photos compress as JPEG; flat widgets stay PNG, where text stays sharp. */
const PHOTOS = new Set(['face-verify']);

const read = (tag, variant, step) => PNG.sync.read(readFileSync(new URL(`${tag}/${variant}-${step}.png`, shots)));

function save(image, name, asJpeg) {
  const file = `${name}.${asJpeg ? 'jpg' : 'png'}`;
  writeFileSync(new URL(file, out), asJpeg ? jpeg.encode(image, 82).data : PNG.sync.write(image));
  return file;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const figures = [];
for (const [tag, steps] of Object.entries(STEPS)) {
  for (const [step, what] of steps) {
    for (const [variant, language] of VARIANTS) {
      const image = read(tag, variant, step);
      const file = save(image, `${tag}-${step}-${variant}`, PHOTOS.has(tag));
      const caption = `&lt;${tag}&gt;: ${what} (${language})`;
      figures.push(`<figure><img src="../gallery/${file}" alt="${caption}" width="${image.width}" height="${image.height}" loading="lazy" /><figcaption>${caption}</figcaption></figure>`);
    }
  }
}

// The README's picture: one step of each widget side by side, on the page's white.
const parts = [read('otp-verify', 'en-light', 'code-wrong'), read('face-verify', 'en-light', 'review'), read('voice-verify', 'ar-dark', 'recording')];
const gap = 16;
const strip = new PNG({ width: parts.reduce((n, p) => n + p.width, 0) + gap * (parts.length + 1), height: Math.max(...parts.map((p) => p.height)) + 2 * gap });
strip.data.fill(255);
let x = gap;
for (const part of parts) {
  PNG.bitblt(part, strip, 0, 0, part.width, part.height, x, gap);
  x += part.width + gap;
}
save(strip, 'readme', true);

const index = new URL('demo/pages/index.md', repo);
const page = readFileSync(index, 'utf8');
writeFileSync(index, page.replace(/<!-- gallery:start -->[\s\S]*?<!-- gallery:end -->/, ['<!-- gallery:start -->', ...figures, '<!-- gallery:end -->'].join('\n')));
console.log(`${figures.length} pictures and readme.jpg in demo/gallery/`);
