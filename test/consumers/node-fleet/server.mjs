import { createServer } from 'node:http';
import { Cluster, Redis } from 'ioredis';
import { ReceiptError, RedisStore, REDIS_CLIENT_OPTIONS, REDIS_CLUSTER_OPTIONS } from 'verify-widgets/server';
import { createVerifyHandler, toNodeListener } from 'verify-widgets/server/node';

// Every process of the site on one Redis (REDIS_URL), or on a Redis Cluster (REDIS_CLUSTER_NODES=host:port,…).
const redis = process.env.REDIS_CLUSTER_NODES
  ? new Cluster(process.env.REDIS_CLUSTER_NODES.split(',').map((node) => ({ host: node.split(':')[0], port: Number(node.split(':')[1]) })), REDIS_CLUSTER_OPTIONS)
  : new Redis(process.env.REDIS_URL, REDIS_CLIENT_OPTIONS);
// While Redis is away requests are answered 503 at once; the client says so here, and reconnects.
redis.on('error', (error) => console.warn(`redis: ${error.message}`));

const verify = createVerifyHandler({
  baseUrl: process.env.SERVICE_BASE_URL,
  apiKey: process.env.SERVICE_API_KEY,
  receiptSecret: process.env.RECEIPT_SECRET,
  basePath: '/api/verify',
  getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
  allowedCountries: ['SA'],
  trustProxy: 1, // the load balancer in front of the processes
  store: new RedisStore(redis),
});
const api = toNodeListener(verify);

/** Where the verification matters: the receipt is checked on the server, once, by any process. */
async function login(request, response) {
  let body = '';
  for await (const chunk of request) body += chunk;
  response.setHeader('content-type', 'application/json');
  try {
    const claims = await verify.verifyReceipt(JSON.parse(body || '{}').receipt, { user: 'demo-user', method: 'otp' });
    response.end(JSON.stringify({ user: claims.sub }));
  } catch (error) {
    response.statusCode = error instanceof ReceiptError ? 403 : 503;
    response.end(JSON.stringify({ refused: error instanceof ReceiptError ? error.reason : 'unavailable' }));
  }
}

const server = createServer((request, response) => {
  if (request.url?.startsWith('/api/verify/')) return api(request, response);
  if (request.url === '/login' && request.method === 'POST') return login(request, response);
  response.writeHead(404).end();
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/`));
