/**
 * The widgets' CDN files (dist/cdn), served by the service under a path of its own, so that a page
 * behind it needs nothing else: immutable names are not promised, so they are cached for an hour.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.map': 'application/json', '.wasm': 'application/wasm', '.json': 'application/json', '.bin': 'application/octet-stream' };

export function cdnFiles(prefix: string, root = fileURLToPath(new URL('../cdn/', import.meta.url))) {
  const file = (url: string): string | null => {
    const path = decodeURIComponent(new URL(url, 'http://x').pathname.slice(prefix.length));
    // Only files inside the folder: a `..` that normalizes outside it is not one.
    const full = normalize(join(root, path));
    return full.startsWith(root) && existsSync(full) && statSync(full).isFile() ? full : null;
  };
  return {
    serves: (url: string) => url.startsWith(`${prefix}/`),
    serve(req: IncomingMessage, res: ServerResponse) {
      const path = file(req.url ?? '');
      if (!path) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' });
      createReadStream(path).pipe(res);
    },
  };
}
