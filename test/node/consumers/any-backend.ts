/**
 * A site whose back end is not JavaScript, as its team runs one: the site (PHP's built-in server or
 * Flask) and two instances of `npx verify-widgets serve` from the tarball behind one nginx, on one
 * redis-server; the docs' snippets are the site's own files (test/consumers/any-backend).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_KEY, type RunningEmulator } from '../../../src/emulator/index.js';
import { freePort, until } from '../helpers.js';
import type { App } from './consumer-apps.js';

export interface Secrets {
  VERIFY_RECEIPT_SECRET: string;
  VERIFY_TOKEN_SECRET: string;
  VERIFY_SERVER_SECRET: string;
}

export const newSecrets = (): Secrets => ({
  VERIFY_RECEIPT_SECRET: randomBytes(32).toString('hex'),
  VERIFY_TOKEN_SECRET: randomBytes(32).toString('hex'),
  VERIFY_SERVER_SECRET: randomBytes(32).toString('hex'),
});

export interface Process {
  child: ChildProcess;
  output(): string;
  /** Signals the process group and waits for its first process (npx, for the service) to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Signals the first process alone, as a process manager or `docker stop` does. */
  signal(signal: NodeJS.Signals): void;
}

/** Spawns a command in its own process group, keeping what it prints. */
export function start(command: string, args: string[], cwd: string, env: Record<string, string>): Process {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit');
  return {
    child,
    output: () => output,
    signal: (signal) => void child.kill(signal),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
      await exited;
    },
  };
}

/** Waits until something answers HTTP at `url`, or the process has exited (and says what it printed). */
async function answering(url: string, what: Process): Promise<void> {
  await until(
    `${url} to answer`,
    async () => {
      if (what.child.exitCode !== null) throw new Error(`exited: ${what.output().slice(-1500)}`);
      return fetch(url).then(
        () => true,
        () => false,
      );
    },
    20_000,
    50,
  );
}

/**
 * One instance of the service, started as the docs say, with environment variables only: by npx,
 * or (`bin`) by the form the docs give for containers and process managers.
 */
export async function startInstance(app: App, env: Record<string, string>, port: number, form: 'npx' | 'bin' = 'npx'): Promise<Process & { port: number }> {
  const [command, ...args] = form === 'npx' ? ['npx', '--no-install', 'verify-widgets', 'serve'] : ['node_modules/.bin/verify-widgets', 'serve'];
  const instance = start(command!, args, app.dir, { ...env, PORT: String(port), VERIFY_LISTEN_HOST: '127.0.0.1' });
  await answering(`http://127.0.0.1:${port}/healthz`, instance);
  return { ...instance, port };
}

export interface Site {
  origin: string;
  emulatorOrigin: string;
  sitePort: number;
  /** Where the site keeps the references the service gives it. */
  referencesDir: string;
  /** Where the site keeps the events the service tells it, one file per event id. */
  eventsDir: string;
  /** The site's server stopped (the service's calls to it refused), and started again on its port. */
  stopSite(): Promise<void>;
  startSiteAgain(): Promise<void>;
  secrets: Secrets;
  /** The instances' environment, to start one again. */
  env: Record<string, string>;
  instances: (Process & { port: number })[];
  close(): Promise<void>;
}

/**
 * The site `kind` on a free port, two service instances for it, and nginx (or Caddy) in front of
 * them all (the docs' location blocks, or routes, included as they are).
 */
export async function startSite(app: App, kind: 'php' | 'python', emulator: RunningEmulator, redisPort: number, proxy: 'nginx' | 'caddy' = 'nginx'): Promise<Site> {
  const secrets = newSecrets();
  const work = mkdtempSync(join(tmpdir(), `any-backend-${kind}-`));
  // nginx's workers (nobody) keep large bodies in temporary files under it.
  chmodSync(work, 0o755);
  const [sitePort, proxyPort] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${proxyPort}`;
  mkdirSync(join(work, 'references'));
  mkdirSync(join(work, 'events'));
  const siteEnv = { ...secrets, REFERENCES_DIR: join(work, 'references'), EVENTS_DIR: join(work, 'events'), VERIFY_INTERNAL_URL: origin };
  const siteSecret = randomBytes(16).toString('hex');
  const launchSite = () =>
    kind === 'php'
      ? start('php', ['-S', `127.0.0.1:${sitePort}`, 'php/index.php'], app.dir, { ...siteEnv, PHP_CLI_SERVER_WORKERS: '4' })
      : start('/usr/bin/python3', ['python/app.py'], app.dir, { ...siteEnv, PORT: String(sitePort), SITE_SECRET: siteSecret, RECEIPTS_DB: join(work, 'receipts.db') });
  let site = launchSite();
  const serviceEnv = {
    ...secrets,
    VERIFY_SERVICE_BASE_URL: emulator.baseUrl,
    VERIFY_SERVICE_API_KEY: DEVELOPMENT_KEY,
    VERIFY_ALLOWED_COUNTRIES: 'SA',
    VERIFY_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    VERIFY_REFERENCES_URL: `http://127.0.0.1:${sitePort}/references`,
    VERIFY_WEBHOOK_URL: `http://127.0.0.1:${sitePort}/webhooks`,
    // The sites register a face from a still camera, and the app installs no face models nor the
    // digits' recogniser: the photo path, and any recording (the service refuses to start serving
    // faces and voices otherwise, naming the packages).
    VERIFY_FACE_LIVENESS: 'false',
    VERIFY_VOICE_LIVENESS: 'false',
    VERIFY_TRUST_PROXY: '1',
    VERIFY_CDN_PATH: '/verify-widgets',
    VERIFY_CODE_LENGTH: '6',
  };
  const started: Process[] = [site];
  const instances: (Process & { port: number })[] = [];
  let front: Process;
  try {
    for (const port of [await freePort(), await freePort()]) started.push(instances[instances.push(await startInstance(app, serviceEnv, port)) - 1]!);
    started.push((front = proxy === 'nginx' ? startNginx(app, work, proxyPort, sitePort, instances) : startCaddy(app, work, proxyPort, sitePort, instances)));
    await answering(`http://127.0.0.1:${sitePort}/token`, site);
    await answering(`${origin}/api/verify/config`, front);
  } catch (error) {
    await Promise.all(started.map((p) => p.stop('SIGKILL')));
    throw error;
  }
  return {
    env: serviceEnv,
    origin,
    emulatorOrigin: emulator.origin,
    sitePort,
    referencesDir: join(work, 'references'),
    eventsDir: join(work, 'events'),
    async stopSite() {
      await site.stop();
    },
    async startSiteAgain() {
      site = launchSite();
      await answering(`http://127.0.0.1:${sitePort}/token`, site);
    },
    secrets,
    instances,
    async close() {
      await Promise.all([front.stop(), site.stop(), ...instances.map((i) => i.stop())]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** nginx in front, with the docs' location blocks included as they are. */
function startNginx(app: App, dir: string, port: number, sitePort: number, instances: { port: number }[]): Process {
  writeFileSync(
    join(dir, 'nginx.conf'),
    nginxConf(
      dir,
      port,
      sitePort,
      instances.map((i) => i.port),
      join(app.dir, 'nginx/verify.conf'),
    ),
  );
  return start('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], dir, {});
}

/** Caddy in front instead, with the docs' routes imported as they are and the instances in VERIFY_INSTANCES. */
function startCaddy(app: App, dir: string, port: number, sitePort: number, instances: { port: number }[]): Process {
  writeFileSync(
    join(dir, 'Caddyfile'),
    `{
	admin off
	auto_https off
}
:${port} {
	import ${join(app.dir, 'caddy/verify.caddy')}
	handle {
		header Content-Security-Policy "default-src 'self'; script-src 'self'; style-src 'self'"
		reverse_proxy 127.0.0.1:${sitePort}
	}
}
`,
  );
  const env = { VERIFY_INSTANCES: instances.map((i) => `127.0.0.1:${i.port}`).join(' '), XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  return start('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], dir, env);
}

function nginxConf(dir: string, port: number, sitePort: number, servicePorts: number[], locations: string): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream verify_service {
${servicePorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=1s;`).join('\n')}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${port};
    include ${locations};
    location / {
      proxy_pass http://127.0.0.1:${sitePort};
      proxy_set_header Host $http_host;
      add_header Content-Security-Policy "default-src 'self'; script-src 'self'; style-src 'self'" always;
    }
  }
}
`;
}
