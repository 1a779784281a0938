import { type Client, type ClientOptions, createClient } from '@monitor/api';
import { afterEach } from 'vitest';
import {
  DEV_ACCOUNT_ID,
  DEV_API_KEY,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from '../index.js';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

export interface Harness {
  emulator: RunningEmulator;
  client: Client;
  /** Raw HTTP against the emulator, with the dev credentials unless overridden. */
  raw(
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string>; rawBody?: string },
  ): Promise<{
    status: number;
    headers: Headers;
    json: unknown;
  }>;
  clientFor(options: ClientOptions): Client;
}

export async function harness(
  options: EmulatorOptions = {},
  clientOptions: ClientOptions = {},
): Promise<Harness> {
  const emulator = await startEmulator({ rcaDurationMs: 3000, clock: 'manual', ...options });
  running.push(emulator);
  const clientFor = (o: ClientOptions) => {
    const c = createClient({
      baseUrl: emulator.url,
      apiKey: DEV_API_KEY,
      accountId: DEV_ACCOUNT_ID,
      env: {},
      ...o,
    });
    running.push(c);
    return c;
  };
  const client = clientFor(clientOptions);
  return {
    emulator,
    client,
    clientFor,
    raw: async (method, path, init = {}) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${DEV_API_KEY}`,
        'x-monitor-account': DEV_ACCOUNT_ID,
        ...(init.body !== undefined || init.rawBody !== undefined
          ? { 'content-type': 'application/json' }
          : {}),
        ...init.headers,
      };
      const res = await fetch(`${emulator.url}${path}`, {
        method,
        headers,
        ...(init.rawBody !== undefined
          ? { body: init.rawBody }
          : init.body !== undefined
            ? { body: JSON.stringify(init.body) }
            : {}),
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        json: text.length > 0 ? JSON.parse(text) : undefined,
      };
    },
  };
}

export const FIXTURE = {
  apiCheck: '8f9a3c1e-2b4d-4e6f-8a1b-3c5d7e9f1a2b',
  failingApiCheck: '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  browserCheck: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
  playwrightCheck: '3b4c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d7e',
  degradedUrlCheck: '4c5d6e7f-8a9b-4c0d-9e2f-3a4b5c6d7e8f',
  icmpCheck: '6e7f8a9b-0c1d-4e2f-9a4b-5c6d7e8f9a0b',
  heartbeat: '8a9b0c1d-2e3f-4a4b-9c6d-7e8f9a0b1c2d',
  errorGroup: 'c1a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8',
  testSessionErrorGroup: 'f4d5e6f7-a8b9-4c03-9425-d6e7f8a9b0c1',
  privateLocation: 'b6f7a8b9-c0d1-4e25-9647-f8a9b0c1d2e3',
  seededService: 'd8b9c0d1-e2f3-4a47-9869-b0c1d2e3f4a5',
  seededIncident: 'e9c0d1e2-f3a4-4b58-8970-c1d2e3f4a5b6',
} as const;

export async function advance(h: Harness, ms: number): Promise<void> {
  const res = await h.raw('POST', '/_emulator/clock', { body: { advanceMs: ms } });
  if (res.status !== 200) throw new Error(`clock advance failed: ${res.status}`);
}
