import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
// Imported by package name: this resolves through node_modules to the built dist/, the way a user's
// project and the other packages load it.
import * as api from '@monitor/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ACCOUNT = '0b7c3c1e-54a4-4a49-9d0f-1c7b1f6f2a11';
let url = '';
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-range': '0-0/1' });
  res.end(
    JSON.stringify([
      {
        id: 1,
        type: 'EMAIL',
        config: { address: 'ops@example.com' },
        created_at: '2026-11-21T10:00:00.000Z',
      },
    ]),
  );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('@monitor/api as built', () => {
  it('exports the client, the endpoint table, the schemas and the errors by name', () => {
    expect(typeof api.createClient).toBe('function');
    expect(typeof api.createAgentHealthClient).toBe('function');
    expect(Object.keys(api.endpoints).length).toBeGreaterThan(50);
    expect(api.checkGroupCreateSchema.safeParse({ name: 'x' }).success).toBe(true);
    expect(new api.NotFoundError('not_found', 'gone')).toBeInstanceOf(api.ApiError);
    expect(api.CLIENT_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists every path of both spec files exactly once per method', () => {
    const routes = api.serviceEndpoints.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('calls a real server from the built output', async () => {
    const client = api.createClient({ baseUrl: url, apiKey: 'k-123456', accountId: ACCOUNT, env: {} });
    const channels = await api.collect(client.alertChannels.all());
    expect(channels).toEqual([
      {
        id: 1,
        type: 'EMAIL',
        config: { address: 'ops@example.com' },
        created_at: '2026-11-21T10:00:00.000Z',
      },
    ]);
    await client.close();
  });
});
