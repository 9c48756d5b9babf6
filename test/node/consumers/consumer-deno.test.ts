/**
 * The docs' Deno Deploy snippet, installed from the tarball and run by Deno (from npm) as three
 * processes on Upstash (a real Redis behind the REST protocol), with Deno Deploy's marker set: one
 * person's calls round-robin, the receipt checked by the app's own /login on each. Then the docs'
 * Bun snippet the same way, run by Bun's own binary from npm.
 */
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startEmulator } from '../../../src/emulator/index.js';
import { httpInstance, installApp, listeningOrigin, roundRobinFlow, startAppServer, type App, type AppServer, type FleetShare } from './consumer-apps.js';
import { startRedis, type RedisServer } from '../server/redis-server.js';
import { startUpstashGateway, type UpstashGateway } from '../server/upstash-gateway.js';

/** Three processes of `appName`, each `launch(app)` ([command, args]) with `env`, on one Upstash; one person's calls round-robin. */
function fleetOnUpstash(title: string, appName: string, launch: (app: App) => [string, string[]], env: Record<string, string>, phones: [string, string]): void {
  describe(title, () => {
    let app: App;
    let share: FleetShare;
    let redis: RedisServer;
    let gateway: UpstashGateway;
    let servers: AppServer[] = [];
    before(async () => {
      app = installApp(appName);
      share = { emulator: await startEmulator({ port: 0 }), secret: randomBytes(32).toString('hex') };
      redis = await startRedis();
      gateway = await startUpstashGateway(redis.port);
      const [command, args] = launch(app);
      const upstash = { PORT: '0', ...env, UPSTASH_REDIS_REST_URL: gateway.url, UPSTASH_REDIS_REST_TOKEN: gateway.token };
      servers = await Promise.all([0, 1, 2].map(() => startAppServer(app, args, /listening on (\S+)/, upstash, share, command)));
    });
    after(async () => {
      await Promise.all(servers.map((server) => server.close()));
      await gateway?.close();
      await redis?.stop();
      await share?.emulator.close();
      app?.remove();
    });

    it('three processes, one person round-robin: the cooldown, the code, the receipt and the caps hold across them', async () => {
      // Each process checks the receipts posted to its own /login, single-use through Upstash.
      const fleet = servers.map((server) => httpInstance(listeningOrigin(server), '/api/verify', '/login'));
      await roundRobinFlow(fleet, share.emulator.origin, phones);
    });
  });
}

fleetOnUpstash(
  'Deno.serve with the handler, as on Deno Deploy, installed from the tarball',
  'deno-app',
  () => [process.execPath, ['node_modules/deno/bin.cjs', 'run', '--allow-net', '--allow-env', '--allow-read', 'main.ts']],
  { DENO_DEPLOYMENT_ID: 'test', DENO_NO_UPDATE_CHECK: '1' },
  ['+966503339911', '+966503339922'],
);

// The binary the `bun` package's installer would put in place, from its npm package.
fleetOnUpstash('Bun.serve with the handler, installed from the tarball', 'bun-app', (app) => [join(app.dir, 'node_modules/@oven/bun-linux-x64/bin/bun'), ['main.ts']], {}, ['+966503339955', '+966503339966']);
