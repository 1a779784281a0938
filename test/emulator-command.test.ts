import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stopWhenTestEnds } from './support/children.js';
import { BIN } from './support/harness.js';

/** `monitor emulator ARGS` until it has printed its variables; killed when the test ends. */
function serving(args: string[]): Promise<string> {
  // A clean machine: nothing says where the agent health endpoints go.
  const { AGENT_HEALTH_PORT: _, ...env } = process.env;
  const child = stopWhenTestEnds(
    spawn(process.execPath, [BIN, 'emulator', ...args], { env: { ...env, NO_COLOR: '1' } }),
  );
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('MONITOR_ACCOUNT_ID=')) resolve(stdout);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.once('exit', (code) => reject(new Error(`monitor emulator exited (${code}): ${stderr}`)));
  });
}

describe('monitor emulator', () => {
  it('--port 0 takes a free agent health port too, prints it, and keeps the request log it is told to', async () => {
    const printed = await serving(['--port', '0', '--quiet', '--request-log-size', '3']);
    const url = /listening on (http:\/\/\S+)/.exec(printed)?.[1] ?? '';
    const agentUrl = /agent health on (http:\/\/\S+)/.exec(printed)?.[1] ?? '';
    expect(new URL(agentUrl).port).not.toBe('8081');
    expect((await fetch(`${agentUrl}/-/readiness`)).status).toBe(200);
    for (let i = 0; i < 5; i++) await (await fetch(`${url}/openapi.json`)).arrayBuffer();
    const log = (await (await fetch(`${url}/_emulator/requests`)).json()) as { requests: unknown[] };
    expect(log.requests).toHaveLength(3);
  });
});
