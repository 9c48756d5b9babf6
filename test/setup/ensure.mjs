#!/usr/bin/env node
// Installs what `npm start` and `npm test` need on a machine that has only Node: the npm packages
// (npm ci), and with --browsers the Debian packages for the browser and Redis tests (apt-get, when
// running as root), or says exactly what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const want = process.argv.slice(2);

// Each tool the tests run, and the Debian package that brings it.
const SYSTEM = [
  { path: '/usr/bin/chromium', pkg: 'chromium' },
  { path: '/usr/bin/firefox-esr', pkg: 'firefox-esr' },
  { path: '/usr/bin/WebKitWebDriver', pkg: 'webkit2gtk-driver' },
  { path: '/usr/bin/xvfb-run', pkg: 'xvfb' },
  { path: '/usr/bin/redis-server', pkg: 'redis-server' },
  // A stock JWT library of another language, to check receipts as a Python host would.
  { path: '/usr/lib/python3/dist-packages/jwt/__init__.py', pkg: 'python3-jwt' },
  // The sites of another language in front of the stand-alone service: nginx, PHP and Flask.
  { path: '/usr/sbin/nginx', pkg: 'nginx-light' },
  { path: '/usr/bin/php', pkg: 'php-cli' },
  { path: '/usr/lib/python3/dist-packages/flask/__init__.py', pkg: 'python3-flask' },
  // The other languages the Any back end page shows, run by the consumer tests, and Caddy in front.
  { path: '/usr/bin/ruby', pkg: 'ruby' },
  { path: '/usr/share/doc/ruby-jwt/copyright', pkg: 'ruby-jwt' },
  { path: '/usr/bin/go', pkg: 'golang-go' },
  { path: '/usr/bin/javac', pkg: 'default-jdk-headless' },
  { path: '/usr/lib/python3/dist-packages/django/__init__.py', pkg: 'python3-django' },
  { path: '/usr/bin/caddy', pkg: 'caddy' },
  // Fonts for the scripts of the ten languages (Urdu, Bengali, Devanagari), so that layouts are measured in real glyphs.
  { path: '/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf', pkg: 'fonts-noto-core' },
];

function run(command, args) {
  // Neither Puppeteer's browser nor onnxruntime-node's GPU files can be fetched here (npm 11 skips
  // the latter's script by package.json's allowScripts; npm 10 reads the variable).
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', ONNXRUNTIME_NODE_INSTALL: 'skip' } });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}

function ensureNodeModules() {
  const marker = `${root}node_modules/.package-lock.json`;
  const lock = `${root}package-lock.json`;
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing npm packages (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function ensureSystemPackages() {
  const missing = SYSTEM.filter((tool) => !existsSync(tool.path)).map((tool) => tool.pkg);
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    console.error(`The browser and Redis tests need these Debian packages: ${missing.join(' ')}
Install them with:
  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}
then run npm test again.`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(' ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
}

ensureNodeModules();
if (want.includes('--browsers')) ensureSystemPackages();
