import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { execFileInTest } from './support/children.js';
import { offlineLock } from './support/offline-lock.js';

/**
 * docs/getting-started.md, run as written: its commands, in an empty directory outside the
 * repository, with npm offline (a request to any registry fails). Its checkout is this repository,
 * which the test suite's own `npm ci` and build prepared. The project's `npm install` takes
 * TypeScript and the dependencies of monitor's packages from a registry; here npm installs them
 * from the cache the suite's `npm ci` filled, and the test first writes the lock that `npm install`
 * would write, pinning each package as this repository's lock pins it.
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

/** Durations, ids and the checkout's path differ from run to run. */
const normal = (line: string) =>
  line
    .trimEnd()
    .replace(/\d+(\.\d+)? m?s\b/g, 'T')
    .replace(/\(id \d+\)/g, '(id N)')
    .replace(/checkout at .+?(, not from a registry)?\.$/, 'checkout at …$1.');

/** What `npm install` would write in the project in `dir`: every package pinned, none fetched. */
function writeInstallLock(dir: string): void {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const tarballs = Object.fromEntries(
    readdirSync(join(dir, 'vendor')).map((f) => [
      `@monitor/${f.replace(/^monitor-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '')}`,
      join(dir, 'vendor', f),
    ]),
  );
  const lock = offlineLock(REPO, tarballs, pkg.name, { dir: 'vendor', devDependencies: pkg.devDependencies });
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
}

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

  it('its commands succeed as written, with npm offline, and print what it shows', async () => {
    // `cd monitor … cd ..` above: the checkout sits beside where the commands run.
    symlinkSync(REPO, join(root, 'monitor'));
    const env = {
      PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
      HOME: root,
      CI: 'true',
      NO_COLOR: '1',
      // The cache of the suite's own npm ci; offline, npm asks no registry for anything.
      npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      // Who commits, as on a machine where git is set up.
      GIT_AUTHOR_NAME: 'You',
      GIT_AUTHOR_EMAIL: 'you@example.com',
      GIT_COMMITTER_NAME: 'You',
      GIT_COMMITTER_EMAIL: 'you@example.com',
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
        if (command === 'npm install') writeInstallLock(cwd);
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
    expect(ran).toBe(9);
  });
});
