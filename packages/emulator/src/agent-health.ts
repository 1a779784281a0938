import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AgentHealth {
  url: string;
  port: number;
  ready: boolean;
  close(): Promise<void>;
}

/** The private-location agent's health endpoints, on their own port, without auth. */
export async function startAgentHealth(port: number, host: string): Promise<AgentHealth> {
  const state = { ready: true };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    };
    if (req.method !== 'GET') return answer(405, 'Method Not Allowed');
    if (path === '/-/readiness') return state.ready ? answer(200, 'OK') : answer(503, 'Shutting down');
    if (path === '/-/liveness' || path === '/health') return answer(200, 'OK');
    return answer(404, 'Not Found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    get ready() {
      return state.ready;
    },
    set ready(value: boolean) {
      state.ready = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
