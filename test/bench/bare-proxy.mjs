// The baseline beside the handler: the least a server can do for a send — read the JSON body,
// pass it to the service with the API key through Node's fetch, answer its JSON — with no checks,
// limits, store or receipts. Same process shape and stats route as handler-server.mjs.
// Usage: node test/bench/bare-proxy.mjs EMULATOR_BASE_URL API_KEY
import { createServer } from 'node:http';
import { cpuStats } from './cpu-stats.mjs';

const [baseUrl, apiKey] = process.argv.slice(2);
const stats = cpuStats();

const server = createServer(async (req, res) => {
  if (req.url === '/__bench/stats') return res.end(JSON.stringify(stats.take()));
  stats.count();
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const { method, email } = JSON.parse(Buffer.concat(chunks).toString());
  const upstream = await fetch(`${baseUrl}/send-otp`, {
    method: 'POST',
    headers: { 'X-Authorization': apiKey, Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ method, email }),
  });
  const answer = await upstream.json();
  res.writeHead(upstream.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer));
});
server.listen(0, '127.0.0.1', () => console.log(`bare proxy http://127.0.0.1:${server.address().port}/verify`));
