import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  rawBody: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON-encoded unless `raw` is set. */
  json?: unknown;
  raw?: string;
  /** Destroy the socket after reading the request, without answering. */
  destroy?: boolean;
}

export type Handler = (req: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server that records each request and answers from `handler`; on port 0 unless given one. */
export async function startTestServer(handler: Handler, port = 0): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: rawBody.length > 0 ? JSON.parse(rawBody) : undefined,
      rawBody,
    };
    requests.push(recorded);
    const reply = await handler(recorded, requests.length - 1);
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const body = reply.raw ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, {
      ...(reply.raw === undefined && reply.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...reply.headers,
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const TEST_ACCOUNT = '0b7c3c1e-54a4-4a49-9d0f-1c7b1f6f2a11';
export const TEST_KEY = 'mk_test_canary_3f9a1d2c7e';

/**
 * A real HTTP server that answers with `handler` as it likes (a body sent a byte at a time, or
 * without end), on port 0. `close` ends every connection, so a body still being sent stops too.
 */
export async function startStreamingServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: undefined,
      rawBody: '',
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Write `text` one character every `everyMs`, then end; stops when the client goes away. */
export function trickle(res: ServerResponse, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (at < text.length) res.write(text[at++]);
    else {
      clearInterval(timer);
      res.end();
    }
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

/**
 * Write `total` bytes of a JSON array padded with spaces (`[   …   ]`) in chunks of 64 KiB, as fast
 * as the client takes them; stops when the client goes away. `sent.bytes` counts what was written.
 */
export function flood(res: ServerResponse, total: number, sent: { bytes: number } = { bytes: 0 }): void {
  const chunk = Buffer.alloc(64 * 1024, ' ');
  res.write('[');
  sent.bytes = 1;
  const more = () => {
    while (!res.destroyed && sent.bytes < total - 1) {
      const piece = chunk.subarray(0, Math.min(chunk.length, total - 1 - sent.bytes));
      sent.bytes += piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    if (!res.destroyed) {
      sent.bytes += 1;
      res.end(']');
    }
  };
  more();
}
