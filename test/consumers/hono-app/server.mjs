import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { createVerifyHandler, ReceiptError } from 'verify-widgets/server';

const verify = createVerifyHandler({
  baseUrl: process.env.SERVICE_BASE_URL,
  apiKey: process.env.SERVICE_API_KEY,
  receiptSecret: process.env.RECEIPT_SECRET,
  basePath: '/api/verify',
  getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
  allowedCountries: ['SA'],
});

const app = new Hono();
app.use(async (c, next) => {
  await next();
  c.header('content-security-policy', "default-src 'self'"); // the strictest a site sends: no inline script
});
// The per-address limits need the caller's address, which a Request alone does not carry.
app.all('/api/verify/*', (c) => verify(c.req.raw, { clientIp: getConnInfo(c).remote.address }));

// Where the verification matters: the receipt is checked on the server, once.
app.post('/login', async (c) => {
  const { receipt } = await c.req.json().catch(() => ({}));
  try {
    const claims = await verify.verifyReceipt(receipt, { user: 'demo-user', method: 'otp' });
    return c.json({ user: claims.sub });
  } catch (error) {
    if (!(error instanceof ReceiptError)) throw error;
    return c.json({ refused: error.reason }, 403);
  }
});

app.use('/assets/*', serveStatic({ root: 'node_modules/verify-widgets/dist/cdn', rewriteRequestPath: (path) => path.replace(/^\/assets/, '') }));
app.use('/*', serveStatic({ root: 'public' }));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`));
