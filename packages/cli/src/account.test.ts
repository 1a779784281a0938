import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor, waitNotice, warnOnce } from './account.js';
import type { Io } from './io.js';

const ACCOUNT = '0b7c3c1e-54a4-4a49-9d0f-1c7b1f6f2a11';
const servers: Server[] = [];
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

function bufferIo(): Io & { err: () => string } {
  let err = '';
  return {
    stdout: () => {},
    stderr: (text) => {
      err += text;
    },
    err: () => err,
    color: false,
    interactive: false,
    cwd: process.cwd(),
    env: {},
  };
}

/** A server on loopback port 0 that answers every request 200 with `[` and 38 spaces and `]`, a byte every 100 ms. */
async function tricklingServer(): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const text = `[${' '.repeat(38)}]`;
    let at = 0;
    const timer = setInterval(() => {
      if (at < text.length) res.write(text[at++]);
      else {
        clearInterval(timer);
        res.end();
      }
    }, 100);
    res.on('close', () => clearInterval(timer));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('clientFor', () => {
  it('--timeout bounds the whole answer: a body that trickles in ends at it, though no gap is that long', async () => {
    const io = bufferIo();
    const client = clientFor({ apiKey: 'k', accountId: ACCOUNT, baseUrl: await tricklingServer() }, io, {
      timeoutSeconds: 0.5,
    });
    clients.push(client);
    const error = (await client.alertChannels.list().catch((e: unknown) => e)) as {
      code: string;
      message: string;
    };
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/^GET \/v1\/alert-channels: no complete answer within 500 ms/);
    // Loopback: no warning about plain http.
    expect(io.err()).not.toContain('warning');
  });

  it('warns once per run, on stderr, that the API key travels in clear to a host that is not loopback', async () => {
    const io = bufferIo();
    // TEST-NET-1 (RFC 5737): nothing answers; the deadline ends each attempt.
    const credentials = { apiKey: 'k', accountId: ACCOUNT, baseUrl: 'http://192.0.2.10:9' };
    for (let i = 0; i < 2; i++) {
      const client = clientFor(credentials, io, { timeoutSeconds: 0.2 });
      clients.push(client);
      await client.alertChannels.list().catch(() => {});
    }
    expect(io.err().match(/^warning: .*$/gm)).toEqual([
      'warning: the base URL http://192.0.2.10:9 is plain http to a host that is not loopback: the API key travels unencrypted to it and to anything on the way; use https, unless a proxy inside your network is meant to take it',
    ]);
  });
});

describe('warnOnce', () => {
  it('prints each message once per Io, escaped', () => {
    const io = bufferIo();
    warnOnce(io, 'one\u001b[31m');
    warnOnce(io, 'one\u001b[31m');
    warnOnce(io, 'two');
    const other = bufferIo();
    warnOnce(other, 'two');
    expect(io.err()).not.toContain('\u001b');
    expect(io.err().split('\n').filter(Boolean)).toHaveLength(2);
    expect(other.err()).toBe('warning: two\n');
  });
});

describe('waitNotice', () => {
  it('says how long a wait is, or, for the account’s shared budget, who it waits for', () => {
    const io = { interactive: false };
    expect(waitNotice({ ms: 57_200, reason: 'the client rate limit of 600 requests per 60 s' }, io)).toBe(
      'Waiting 58 s: the client rate limit of 600 requests per 60 s\n',
    );
    expect(
      waitNotice(
        { ms: 1_200, reason: "the account's budget: 3 other runs are deploying into it", otherRuns: 3 },
        io,
      ),
    ).toBe("Waiting for the account's budget: 3 other runs are deploying into it\n");
  });
});
