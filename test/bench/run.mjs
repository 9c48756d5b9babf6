#!/usr/bin/env node
// `npm run bench`: the budgets of the benchmarks page (demo/pages/benchmarks.md) in one printout, with the date and the machine.
// Figures, not tests: nothing here fails on a slow machine. Run after `npm run build`.
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { formatBrowser, measureBrowser } from './browser.mjs';
import { formatFirstPress, measureFirstPress } from './first-press.mjs';
import { FLOW_BUDGET, formatAnatomy, formatSizes, measureSizes } from './sizes.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const started = Date.now();
console.log(`verify-widgets benchmarks, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);

console.log(`Sizes, from the packed tarball installed in a fresh folder, bundled from a site's entry file (esbuild with splitting, minified for browsers; and Vite 8's production build of the same file; first-load budgets: <otp-verify> <= 16 KB gzip, face and voice <= 15 KB, all three and the CDN file <= 24 KB; a whole flow <= ${FLOW_BUDGET}x its first load)`);
const sizes = await measureSizes();
console.log(formatSizes(sizes.rows));
for (const anatomy of sizes.anatomies) console.log(`\n${formatAnatomy(anatomy)}`);

console.log('\nThe first press over a slow network (Chromium at "Fast 3G", nothing cached: the first step on screen, and the first press to the next step, pressed at once and after 3 s)');
console.log(formatFirstPress(await measureFirstPress(5)));

console.log('\nBrowser timings (the shutter from the click to the photo on screen; stop to WAV by the widget\'s own performance marks)');
console.log(formatBrowser(await measureBrowser(10)));

console.log('\nFriction on a phone-class CPU (budget: the owner\'s total proof-of-work time under pressure at most 30 s, Chromium at 4x CPU throttling)');
console.log(execFileSync(process.execPath, ['--import', 'tsx', here('./proof-of-work.ts'), '3'], { encoding: 'utf8' }).trim());

console.log('\nHost handler (budgets: its own work <= 1 ms at p99; through the Node entry, CPU per request <= 1.0x a bare fetch proxy and >= 2,000 req/s on one core)');
console.log(execFileSync(process.execPath, [here('./handler-overhead.mjs'), '2000'], { encoding: 'utf8' }).trim());

console.log('\nShared stores (round trips per OTP flow, and the handler\'s CPU per request on each)');
console.log(execFileSync(process.execPath, ['--import', 'tsx', here('./stores.ts'), '2000'], { encoding: 'utf8' }).trim());
console.log(execFileSync(process.execPath, ['--import', 'tsx', here('./durable-objects.ts'), '4000'], { encoding: 'utf8' }).trim());

console.log('\nHostile bodies (budget: other callers\' requests stay under 50 ms at p99 while they are refused)');
console.log(execFileSync(process.execPath, [here('./hostile-bodies.mjs'), '500'], { encoding: 'utf8' }).trim());

console.log('\nLive faces, on the site\'s server alone (budgets: at most 0.5 s of CPU per check on one core, models warm; at most 400 MB with the models loaded; 20 checks at once leave the event loop under 50 ms late)');
console.log(execFileSync(process.execPath, ['--import', 'tsx', here('./liveness.ts'), '20'], { encoding: 'utf8' }).trim());

console.log('\nA voice\'s digits heard, on the site\'s server alone (the recogniser in a worker thread; the event loop budget as for faces)');
console.log(execFileSync(process.execPath, ['--import', 'tsx', '--no-warnings', here('./voice-digits.ts'), '20'], { encoding: 'utf8' }).trim());

console.log('\nEmulator comparisons (development only: ms per comparison through its HTTP interface, decoding included)');
console.log(execFileSync(process.execPath, [here('./comparisons.mjs'), '5'], { encoding: 'utf8' }).trim());

console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s)`);
