import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { execFileInTest } from './support/children.js';

/**
 * docs/getting-started.md, run as written: its commands, in an empty directory outside the
 * repository, with npm pointed at a registry that refuses every connection and an empty cache.
 * Its checkout is this repository, which the test suite's own `npm ci` and build prepared.
 */

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DOC = readFileSync(join(REPO, 'docs/getting-started.md'), 'utf8');
const root = mkdtempSync(join(tmpdir(), 'monitor-getting-started-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const run = execFileInTest;

/** The doc's fenced blocks, in order, up to the section that needs a real account. */
function blocks(): { lang: string; lines: string[] }[] {
  const local = DOC.slice(0, DOC.indexOf('## 5. Your account'));
  return [...local.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] as string,
    lines: (m[2] as string).replace(/\n$/, '').split('\n'),
  }));
}

/** A port on loopback where nothing listens: a registry there refuses every request. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Durations, ids and the checkout's path differ from run to run. */
const normal = (line: string) =>
  line
    .trimEnd()
    .replace(/\d+(\.\d+)? m?s\b/g, 'T')
    .replace(/\(id \d+\)/g, '(id N)')
    .replace(/checkout at .+\.$/, 'checkout at ….');

describe('docs/getting-started.md', () => {
  it('starts from a checkout, built as the README builds it', () => {
    const [prepare] = blocks();
    expect(prepare?.lang).toBe('sh');
    expect(prepare?.lines.map((l) => l.replace(/\s+#.*$/, ''))).toEqual([
      'cd monitor',
      'npm ci',
      'npm run build',
      'cd ..',
    ]);
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain('npm ci && npm run demo');
  });

  it('its commands succeed as written, with no registry, and print what it shows', async () => {
    // `cd monitor … cd ..` above: the checkout sits beside where the commands run.
    symlinkSync(REPO, join(root, 'monitor'));
    const registry = `http://127.0.0.1:${await refusingPort()}/`;
    const env = {
      PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
      HOME: root,
      CI: 'true',
      NO_COLOR: '1',
      npm_config_registry: registry,
      npm_config_cache: join(root, '.npm-cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    let cwd = root;
    const commands = blocks()
      .slice(1)
      .filter((b) => b.lang === 'console');
    expect(commands.length).toBeGreaterThanOrEqual(3);
    let ran = 0;
    for (const block of commands) {
      for (let i = 0; i < block.lines.length; i++) {
        const line = block.lines[i] as string;
        if (!line.startsWith('$ ')) continue;
        const command = line.slice(2);
        const expected: string[] = [];
        for (let j = i + 1; j < block.lines.length && !block.lines[j]?.startsWith('$ '); j++)
          expected.push(block.lines[j] as string);
        const cd = /^cd (\S+)$/.exec(command);
        if (cd !== null) {
          cwd = join(cwd, cd[1] as string);
          continue;
        }
        const result = await run('bash', ['-e', '-c', command], { cwd, env }).catch(
          (e: { code: number; stdout: string; stderr: string }) => e,
        );
        const output = `${result.stdout}\n${result.stderr}`;
        expect('code' in result ? result.code : 0, `${command}\n${output}`).toBe(0);
        const printed = output.split('\n').map(normal);
        for (const want of expected.map(normal).filter((l) => l !== ''))
          expect(printed, `${command} prints "${want}"`).toContain(want);
        ran++;
      }
    }
    expect(ran).toBe(6);
  });
});
