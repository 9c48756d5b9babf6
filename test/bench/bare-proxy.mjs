// The baselines beside the handler: the least a server can do for a send — read the JSON body,
// pass it to the service with the API key, answer its JSON — with no checks, limits, store or
// receipts; upstream through Node's fetch (`fetch`), or through `http.request` on a kept-alive agent
// (`http`, the Node floor). Same process shape and stats route as handler-server.mjs.
// Usage: node test/bench/bare-proxy.mjs EMULATOR_BASE_URL API_KEY [fetch|http]
import { Agent, createServer, request } from 'node:http';
import { cpuStats } from './cpu-stats.mjs';

const [baseUrl, apiKey, upstream = 'fetch'] = process.argv.slice(2);
const stats = cpuStats();
const headers = { 'X-Authorization': apiKey, Accept: 'application/json', 'Content-Type': 'application/json' };
const agent = new Agent({ keepAlive: true });

/** The service's answer to `body`: its status and its JSON, parsed. */
async function send(body) {
  if (upstream === 'fetch') {
    const answer = await fetch(`${baseUrl}/send-otp`, { method: 'POST', headers, body });
    return { status: answer.status, json: await answer.json() };
  }
  return new Promise((resolve, reject) => {
    const outgoing = request(`${baseUrl}/send-otp`, { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, agent }, async (answer) => {
      const chunks = [];
      for await (const chunk of answer) chunks.push(chunk);
      resolve({ status: answer.statusCode, json: JSON.parse(Buffer.concat(chunks).toString()) });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const server = createServer(async (req, res) => {
  if (req.url === '/__bench/stats') return res.end(JSON.stringify(stats.take()));
  stats.count();
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const { method, email } = JSON.parse(Buffer.concat(chunks).toString());
  const { status, json } = await send(JSON.stringify({ method, email }));
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(json));
});
server.listen(0, '127.0.0.1', () => console.log(`bare proxy http://127.0.0.1:${server.address().port}/verify`));
