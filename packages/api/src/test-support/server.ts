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
