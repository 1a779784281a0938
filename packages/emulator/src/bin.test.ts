import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { stopWhenTestEnds } from './test-support/children.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** A port this test holds (taken on port 0), released when the test ends. */
async function busyPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** The environment of a clean machine: no AGENT_HEALTH_PORT. */
function cleanEnv(): NodeJS.ProcessEnv {
  const { AGENT_HEALTH_PORT: _, ...env } = process.env;
  return env;
}

/** `monitor-emulator ARGS` until it exits; killed when the test ends, if it has not. */
function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = stopWhenTestEnds(spawn(process.execPath, [BIN, ...args], { env: cleanEnv() }));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `monitor-emulator ARGS` until it prints its variables; killed when the test ends. */
function runServing(args: string[]): Promise<{ stdout: string; child: ChildProcess }> {
  const child = stopWhenTestEnds(spawn(process.execPath, [BIN, ...args], { env: cleanEnv() }));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('MONITOR_ACCOUNT_ID=')) resolve({ stdout, child });
    });
    child.once('exit', (code) => reject(new Error(`monitor-emulator exited (${code}) before serving`)));
  });
}

describe('monitor-emulator ports', () => {
  it('a busy agent health port: exit 1 with the coded message and hint, no stack', async () => {
    const port = await busyPort();
    const agent = await runToExit(['--port', '0', '--agent-health-port', String(port)]);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toBe(
      `monitor-emulator: agent health port ${port} on 127.0.0.1 is already in use\n` +
        'hint: stop what listens there, choose another port, or use port 0 for a free one\n',
    );
    const api = await runToExit(['--port', String(port)]);
    expect(api.code).toBe(1);
    expect(api.stderr).toBe(
      `monitor-emulator: port ${port} on 127.0.0.1 is already in use\n` +
        'hint: stop what listens there, choose another port, or use port 0 for a free one\n',
    );
  });

  it('--port 0 takes a free agent health port too, and prints it', async () => {
    const { stdout } = await runServing(['--port', '0', '--quiet']);
    const agentUrl = /agent health on (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';
    expect(new URL(agentUrl).port).not.toBe('8081');
    expect((await fetch(`${agentUrl}/-/liveness`)).status).toBe(200);
  });

  it('--request-log-size bounds the request log; a size that is not a count is refused', async () => {
    const { stdout } = await runServing(['--port', '0', '--quiet', '--request-log-size', '2']);
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';
    for (let i = 0; i < 5; i++) await (await fetch(`${url}/v1/check-groups`)).text();
    const log = (await (await fetch(`${url}/_emulator/requests`)).json()) as {
      requests: unknown[];
      total: number;
      capacity: number;
    };
    expect(log).toMatchObject({ total: 5, capacity: 2 });
    expect(log.requests).toHaveLength(2);
    const bad = await runToExit(['--port', '0', '--request-log-size', 'lots']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--request-log-size must be a whole number of at least 0, not NaN');
  });
});
