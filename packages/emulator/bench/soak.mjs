// Memory of the emulator under a soak: 20 clients create, read, change and delete every kind
// (alert channels with group subscriptions, groups, dashboards with incidents, services, status
// pages with incidents, maintenance windows) and trigger check sessions and root cause analyses,
// for a fixed number of requests. The emulator is the built bin in its own process; it reports
// its memory after a full garbage collection (bench/memory-probe.mjs) at each stage, and this
// script samples its resident memory while the request log is read.
//
//   node bench/soak.mjs [REQUESTS] [--bin path/to/bin.js]     (default 200000 requests)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values, positionals } = parseArgs({
  options: { bin: { type: 'string' } },
  allowPositionals: true,
});
const BIN = values.bin ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const PROBE = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url));
const TOTAL = Number(positionals[0] ?? 200_000);
const CLIENTS = 20;
const ACCOUNT = '00000000-0000-4000-8000-00000000de00';
const KEY = 'mk_dev_emulator_key';
const API_CHECK = '8f9a3c1e-2b4d-4e6f-8a1b-3c5d7e9f1a2b';
const ERROR_GROUP = 'c1a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8';
const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const child = spawn(
  process.execPath,
  [
    '--expose-gc',
    '--import',
    PROBE,
    BIN,
    '--port',
    '0',
    '--agent-health-port',
    '0',
    '--no-rate-limit',
    '--quiet',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
const url = await new Promise((resolve, reject) => {
  let out = '';
  child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before it listened`)));
  child.stdout.on('data', (c) => {
    out += c;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
});
child.stdout.resume();

let stderr = '';
const memoryWaiters = [];
child.stderr.setEncoding('utf8').on('data', (c) => {
  stderr += c;
  for (let nl = stderr.indexOf('\n'); nl >= 0; nl = stderr.indexOf('\n')) {
    const line = stderr.slice(0, nl);
    stderr = stderr.slice(nl + 1);
    if (line.startsWith('memory ')) memoryWaiters.shift()?.(JSON.parse(line.slice(7)));
    else process.stderr.write(`${line}\n`);
  }
});
/** The emulator's memory after a full collection. */
const memory = () =>
  new Promise((resolve) => {
    memoryWaiters.push(resolve);
    child.kill('SIGUSR2');
  });
/** Resident memory now (Linux), without a collection. */
const rssNow = () => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
};

const pool = new Pool(url, { connections: CLIENTS });
const headers = {
  authorization: `Bearer ${KEY}`,
  'x-monitor-account': ACCOUNT,
  'content-type': 'application/json',
};
let sent = 0;
let failed = 0;
const failures = new Map();
async function call(method, path, body) {
  sent++;
  const res = await pool.request({
    method,
    path,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  if (res.statusCode >= 400) {
    failed++;
    const key = `${method} ${path.replace(/[0-9a-f-]{36}|\d+/g, ':id')} ${res.statusCode}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
    return undefined;
  }
  return text === '' ? undefined : JSON.parse(text);
}

/** One round of every kind: ~30 requests; everything created is deleted again. */
async function cycle(client, n) {
  const tag = `c${client}-${n}`;
  const channel = await call('POST', '/v1/alert-channels', {
    type: 'EMAIL',
    config: { address: `${tag}@example.com` },
  });
  const group = await call('POST', '/v2/check-groups?autoAssignAlerts=false', {
    name: `soak ${tag}`,
    tags: ['soak', tag],
    locations: ['eu-west-1', 'us-east-1'],
    ...(channel ? { alertChannelSubscriptions: [{ alertChannelId: channel.id, activated: true }] } : {}),
  });
  if (channel && group)
    await call('PUT', `/v1/alert-channels/${channel.id}/subscriptions`, {
      groupId: group.id,
      activated: true,
    });
  if (group) {
    await call('GET', `/v1/check-groups/${group.id}`);
    await call('PUT', `/v2/check-groups/${group.id}`, { name: `soak ${tag} (changed)`, muted: true });
    await call('GET', '/v1/check-groups?limit=100');
    await call('DELETE', `/v1/check-groups/${group.id}`);
  }
  if (channel) await call('DELETE', `/v1/alert-channels/${channel.id}`);

  const dashboard = await call('POST', '/v1/dashboards', {
    header: `Soak ${tag}`,
    isPrivate: true,
    tags: ['soak'],
  });
  if (dashboard) {
    await call('POST', '/v1/incidents', {
      name: `Outage ${tag}`,
      impact: 'MAJOR',
      dashboardId: dashboard.id,
      incidentUpdates: [{ status: 'INVESTIGATING', description: 'Looking into it' }],
    });
    await call('GET', `/v1/dashboards/${dashboard.dashboardId}`);
    await call('DELETE', `/v1/dashboards/${dashboard.dashboardId}`);
  }

  const service = await call('POST', '/v1/status-pages/services', { name: `API ${tag}` });
  if (service) {
    const page = await call('POST', '/v1/status-pages', {
      name: `Status ${tag}`,
      url: `soak-${tag}`,
      cards: [{ name: 'Core', services: [{ id: service.id }] }],
    });
    const incident = await call('POST', '/v1/status-pages/incidents', {
      name: `Degraded ${tag}`,
      severity: 'MINOR',
      services: [{ id: service.id, name: service.name, accountId: ACCOUNT }],
      incidentUpdates: [{ description: 'Looking into it' }],
    });
    if (incident) {
      await call('POST', `/v1/status-pages/incidents/${incident.id}/incident-updates`, {
        description: 'Fixed',
        status: 'RESOLVED',
      });
      await call('DELETE', `/v1/status-pages/incidents/${incident.id}`);
    }
    if (page) {
      await call('GET', `/v1/status-pages/${page.id}`);
      await call('DELETE', `/v1/status-pages/${page.id}`);
    }
    await call('DELETE', `/v1/status-pages/services/${service.id}`);
  }

  const window = await call('POST', '/v1/maintenance-windows', {
    name: `Upgrade ${tag}`,
    startsAt: '2026-12-01T10:00:00.000Z',
    endsAt: '2026-12-01T12:00:00.000Z',
    repeatUnit: null,
  });
  if (window) await call('DELETE', `/v1/maintenance-windows/${window.id}`);

  const triggered = await call('POST', '/v2/check-sessions/trigger', { target: { checkId: [API_CHECK] } });
  const session = triggered?.sessions?.[0];
  if (session) await call('GET', `/v2/check-sessions/${session.checkSessionId}`);
  // Analyses are listed on their error group: one in 20 rounds asks for one, as a person would.
  if (n % 20 === 0) {
    const rca = await call('POST', `/v1/root-cause-analyses/error-groups/${ERROR_GROUP}`, {});
    if (rca) await call('GET', `/v1/root-cause-analyses/${rca.id}`);
    await call('GET', '/v1/error-groups?limit=100');
  }
}

async function soak(total) {
  const goal = sent + total;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; sent < goal; n++) await cycle(client, n);
    }),
  );
  return (performance.now() - started) / 1000;
}

const rows = [];
const record = async (stage, extra = '') => {
  const m = await memory();
  rows.push([stage, MB(m.rss), MB(m.heapUsed), extra]);
};

await record('started');
await soak(3_000);
await record('after a 3,000-request warm-up');
const seconds = await soak(TOTAL);
await record(
  `after ${TOTAL.toLocaleString('en')} more requests`,
  `${Math.round(TOTAL / seconds)} req/s, ${failed} failed`,
);

let peak = rssNow();
const sampler = setInterval(() => {
  peak = Math.max(peak, rssNow());
}, 10);
const log = await pool.request({ method: 'GET', path: '/_emulator/requests' });
const logBytes = (await log.body.arrayBuffer()).byteLength;
clearInterval(sampler);
peak = Math.max(peak, rssNow());
await record(
  'after GET /_emulator/requests',
  `answer ${MB(logBytes)}; RSS peaked at ${peak ? MB(peak) : 'n/a'} while answering`,
);
await pool.request({ method: 'DELETE', path: '/_emulator/requests' }).then((r) => r.body.dump());
await record('after DELETE /_emulator/requests');

// What it holds at the end, where the emulator can say (/_emulator/stats).
const stats = await pool.request({ method: 'GET', path: '/_emulator/stats' });
const held = stats.statusCode === 200 ? (await stats.body.json()).rows : undefined;
if (held === undefined) await stats.body.dump();
await pool.close();
child.kill('SIGTERM');

console.log(`emulator soak: ${CLIENTS} clients, ${BIN}`);
console.log('stage                                      RSS        heap used (after GC)');
for (const [stage, rss, heap, extra] of rows)
  console.log(`${stage.padEnd(42)} ${rss.padStart(9)}  ${heap.padStart(9)}   ${extra}`);
if (held !== undefined) {
  const kept = Object.entries(held).filter(([, n]) => n > 0);
  console.log(`rows held at the end: ${kept.map(([t, n]) => `${t} ${n}`).join(', ')}`);
}
if (failures.size > 0) {
  console.log('failed requests:');
  for (const [key, count] of failures) console.log(`  ${count}× ${key}`);
}
