import express from 'express';
import { ReceiptError } from 'verify-widgets/server';
// On Node: the handler reaches the service through a keep-alive node:http agent.
import { createVerifyHandler, toNodeListener } from 'verify-widgets/server/node';

const verify = createVerifyHandler({
  baseUrl: process.env.SERVICE_BASE_URL,
  apiKey: process.env.SERVICE_API_KEY,
  receiptSecret: process.env.RECEIPT_SECRET,
  basePath: '/api/verify',
  getUser: () => 'demo-user', // your sign-in: the session's user id, or null for a guest
  allowedCountries: ['SA'],
});

const app = express();
app.use(express.json()); // a parser mounted first is fine: the handler takes the parsed body
app.use((req, res, next) => {
  res.set('content-security-policy', "default-src 'self'"); // the strictest a site sends: no inline script
  next();
});
app.use('/api/verify', toNodeListener(verify));
app.use('/assets', express.static('node_modules/verify-widgets/dist/cdn'));
app.use(express.static('public'));

// Where the verification matters: the receipt is checked on the server, once.
app.post('/login', async (req, res) => {
  try {
    const claims = await verify.verifyReceipt(req.body?.receipt, { user: 'demo-user', method: 'otp' });
    res.json({ user: claims.sub });
  } catch (error) {
    if (!(error instanceof ReceiptError)) throw error;
    res.status(403).json({ refused: error.reason });
  }
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/`));
