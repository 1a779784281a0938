// What a server that stalls or floods costs a client: the time until the client's error, and the
// client's peak memory. The servers run in this process on loopback; each case's client runs in a
// child process of its own (the built package), so its peak resident memory is its own.
//   slow body      headers at once, then one byte every 500 ms, without end; the client as
//                  `monitor diff --timeout 5` makes it (headers, idle and whole answer 5 s; a GET
//                  is tried 4 times, as by default)
//   300 MB body    300 MB as fast as the client takes it, no Content-Length; default client
//   300 MB declared the same with `Content-Length: 314572800`
//   hostile JSON   `[{},{},…]` just under the cap: what JSON.parse makes of it is the most a
//                  response can weigh (twenty times its bytes), then the check of the contract
//   heavy page     one valid item carrying `[{},{},…]` under an unknown key, just under the cap:
//                  it passes the check (unknown keys are kept), so the client holds all of it
// Bounded: each case ends with the client's error or answer.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const ACCOUNT = '0b7c3c1e-54a4-4a49-9d0f-1c7b1f6f2a11';
const MB = 1024 * 1024;

async function child(name, url) {
  const { createClient } = await import('@monitor/api');
  const timeouts = name === 'slow body' ? { headersMs: 5000, bodyMs: 5000, totalMs: 5000 } : {};
  const client = createClient({ baseUrl: url, apiKey: 'k', accountId: ACCOUNT, env: {}, timeouts });
  const started = performance.now();
  let outcome;
  try {
    const page = await client.checkGroups.list();
    outcome = { ok: true, items: page.items.length };
  } catch (error) {
    outcome = { ok: false, code: error.code, message: error.message.slice(0, 160) };
  }
  const ms = Math.round(performance.now() - started);
  await client.destroy();
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify({ ms, maxRssMb, ...outcome })}\n`);
}

/** Write `total` bytes: `head`, then `fill` repeated, then `tail`, as fast as the client takes them. */
function stream(res, total, head, fill, tail) {
  const chunk = Buffer.from(fill.repeat(Math.floor((64 * 1024) / fill.length)));
  let sent = head.length;
  res.write(head);
  const more = () => {
    while (!res.destroyed && sent + tail.length < total) {
      const room = total - tail.length - sent;
      const piece = room >= chunk.length ? chunk : chunk.subarray(0, room - (room % fill.length));
      if (piece.length === 0) break;
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end(tail);
  };
  more();
}

async function main() {
  const { MAX_RESPONSE_BYTES: cap } = await import('@monitor/api');
  // A check group as the service returns it, less its closing brace: the flood goes in after it.
  const group = JSON.stringify({
    id: 45,
    name: 'payments',
    activated: true,
    muted: false,
    tags: ['api'],
    locations: ['eu-west-1'],
    concurrency: 3,
    apiCheckDefaults: {
      url: '',
      headers: [],
      queryParameters: [],
      assertions: [],
      basicAuth: { username: '', password: '' },
    },
    runtimeId: null,
    environmentVariables: [],
    alertChannelSubscriptions: [],
    retryStrategy: 'FALLBACK',
    created_at: '2026-11-21T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
  }).slice(0, -1);
  const cases = {
    'slow body': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => res.write(' '), 500);
      res.on('close', () => clearInterval(timer));
    },
    '300 MB body': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      stream(res, 300 * MB, '[', ' ', ']');
    },
    '300 MB declared': (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * MB) });
      stream(res, 300 * MB, '[', ' ', ']');
    },
    'hostile JSON': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      stream(res, cap, '[{}', ',{}', ']');
    },
    'heavy page': (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-range': '0-0/1' });
      stream(res, cap, `[${group},"x":[{}`, ',{}', ']}]');
    },
  };
  console.log(`response cap ${cap / MB} MiB, Node ${process.version}`);
  for (const [name, handler] of Object.entries(cases)) {
    const server = createServer((_req, res) => handler(res));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}`;
    const result = await runChild(name, url);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const outcome = result.ok ? `answered (${result.items} items)` : `${result.code}: ${result.message}`;
    console.log(
      `${name.padEnd(16)} ${`${(result.ms / 1000).toFixed(2)} s`.padStart(8)} ${`${result.maxRssMb} MB`.padStart(8)}  ${outcome}`,
    );
  }
}

function runChild(name, url) {
  const script = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, [script, '--child', name, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (c) => {
    out += c;
  });
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`the client of "${name}" exited ${code}: ${out}`));
    });
  });
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await main();
