// The platform's limit: a bare node:http server that answers each path with a precomputed body
// and headers captured from the server under test (same body bytes, same header names and
// value lengths), so the difference in a benchmark round is the API's own work. The body is a
// Buffer, the fastest thing node:http can send (a string body is encoded on every response and
// measured about a third slower), so the bare figure is the platform's limit, not a soft target.
// Usage: node scripts/bench/bare-server.mjs RESPONSES.json
//   RESPONSES.json: {"/path": {"headers": {"Name": "value", ...}, "body": "..."}, ...}
// Prints "bare listening on http://127.0.0.1:PORT (pid N)" on stderr.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const responses = new Map();
for (const [path, { headers, body }] of Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')))) {
  const bytes = Buffer.from(body, 'utf8');
  responses.set(path, { headers: { ...headers, 'Content-Length': bytes.length }, body: bytes });
}
const notFound = { headers: { 'Content-Type': 'text/plain', 'Content-Length': 9 }, body: Buffer.from('not found') };

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const { headers, body } = responses.get(q === -1 ? url : url.slice(0, q)) ?? notFound;
  res.writeHead(body === notFound.body ? 404 : 200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`bare listening on http://127.0.0.1:${server.address().port} (pid ${process.pid})\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
