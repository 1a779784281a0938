import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileInTest } from './support/children.js';
import { cleanup, emulatorForTests, monitor, writeProject } from './support/harness.js';

/**
 * `monitor completion bash|zsh|fish`: each script run by its shell, in a project that installed
 * monitor locally (node_modules/.bin/monitor, nothing on PATH), as a person's TAB would run it.
 */

const run = execFileInTest;
const BIN = fileURLToPath(new URL('../packages/cli/bin/monitor.js', import.meta.url));
// Outside the repository: nothing above it has a node_modules/.bin/monitor.
const root = mkdtempSync(join(tmpdir(), 'monitor-completion-'));
const project = join(root, 'project');
const nowhere = join(root, 'elsewhere');
// node, and the shell's own tools; no monitor.
const PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter);
const scripts: Record<string, string> = {};

beforeAll(async () => {
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(BIN, join(project, 'node_modules', '.bin', 'monitor'));
  mkdirSync(nowhere);
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await monitor(['completion', shell], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    scripts[shell] = join(root, `completion.${shell}`);
    writeFileSync(scripts[shell], result.stdout);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** zsh and fish are tested where they are installed (bash always is). */
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

/** What bash completes for `words` (the last one is being typed), in `cwd`. */
async function bash(words: string[], cwd = project, before = ''): Promise<string[]> {
  const array = words.map((w) => `'${w}'`).join(' ');
  const fn = words[0] === 'npx' ? '_monitor_npx_completions' : '_monitor_completions';
  const { stdout } = await run(
    'bash',
    [
      '-c',
      `${before}source '${scripts.bash}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; ${fn}; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { cwd, env: { PATH, HOME: root } },
  );
  return stdout.split('\n').filter((l) => l !== '');
}

describe('monitor completion', () => {
  it('--help prints help, and the shell is an argument (no "Did you mean")', async () => {
    const help = await monitor(['completion', '--help'], { cwd: project });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('monitor completion [shell]');
    expect(help.stdout).toContain('[choices: "bash", "zsh", "fish"]');
    expect(help.stdout).toContain('monitor completion bash >> ~/.bashrc');
    expect(help.stdout).toContain('a local install (npm install, npx monitor) completes');
    expect(help.stdout).not.toContain('###-begin-monitor-completions-###');
    for (const shell of ['zsh', 'fish']) {
      const script = await monitor(['completion', shell], { cwd: project });
      expect(script.code).toBe(0);
      expect(script.stderr).toBe('');
      expect(script.stdout).toContain(`# monitor completion for ${shell}`);
    }
    const unknown = await monitor(['completion'], { cwd: project, env: { SHELL: '/bin/tcsh' } });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error: which shell? $SHELL is "/bin/tcsh"');
  });

  it('bash: verbs after state, commands, options; for monitor and npx monitor, with monitor on no PATH', async () => {
    expect(await bash(['monitor', 'state', ''])).toEqual([
      'list',
      'show',
      'mv',
      'rm',
      'pull',
      'push',
      'migrate',
      'unlock',
      'rebind',
    ]);
    expect(await bash(['monitor', 'checks', ''])).toEqual(['list', 'get']);
    expect(await bash(['monitor', 'st'])).toEqual(['state', 'status-pages']);
    expect(await bash(['npx', 'monitor', 'st'])).toEqual(['state', 'status-pages']);
    expect(await bash(['npx', 'monitor', 'diff', '--detailed'])).toEqual(['--detailed-exitcode']);
    expect(await bash(['monitor', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    // npx of anything else is left alone: the completion npx had before still answers.
    expect(await bash(['npx', 'prettier', 'st'])).toEqual([]);
    const npxHad = '_npx_own() { COMPREPLY=(from-npx); }; complete -F _npx_own npx; ';
    expect(await bash(['npx', 'prettier', 'st'], project, npxHad)).toEqual(['from-npx']);
    expect(await bash(['npx', 'monitor', 'st'], project, npxHad)).toEqual(['state', 'status-pages']);
    // Outside a project, the monitor that wrote the script answers.
    expect(await bash(['monitor', 'state', 'mi'], nowhere)).toEqual(['migrate']);
  });

  it.runIf(has('zsh'))('zsh: the same words, with descriptions for _describe', async () => {
    const complete = async (service: string, words: string[], before = '') => {
      const { stdout } = await run(
        'zsh',
        [
          '-f',
          '-c',
          `${before}compdef() { :; }; _describe() { print -l -- "\${(@P)2}"; }; _default() { print DEFAULT; }; source '${scripts.zsh}'; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; service=${service}; _monitor`,
        ],
        { cwd: project, env: { PATH, HOME: root } },
      );
      return stdout.split('\n').filter((l) => l !== '');
    };
    expect(await complete('monitor', ['monitor', 'state', ''])).toEqual([
      'list',
      'show',
      'mv',
      'rm',
      'pull',
      'push',
      'migrate',
      'unlock',
      'rebind',
    ]);
    expect(await complete('npx', ['npx', 'monitor', 'st'])).toEqual(
      expect.arrayContaining([
        'state:List, show, move, forget, pull, push, migrate, unlock and rebind the state of the project',
      ]),
    );
    expect(await complete('npx', ['npx', 'prettier'])).toEqual(['DEFAULT']);
    // The completion npx had before is kept for anything but monitor.
    const npxHad = 'typeset -A _comps; _comps[npx]=_npx_own; _npx_own() { print FROM-NPX; }; ';
    expect(await complete('npx', ['npx', 'prettier'], npxHad)).toEqual(['FROM-NPX']);
  });

  it.runIf(has('fish'))('fish: the same words, with descriptions', async () => {
    const complete = async (line: string) => {
      const { stdout } = await run('fish', ['-c', `source '${scripts.fish}'; complete -C '${line}'`], {
        cwd: project,
        env: { PATH, HOME: root, XDG_CONFIG_HOME: root, XDG_DATA_HOME: root },
      });
      return stdout.split('\n').filter((l) => l !== '');
    };
    expect(await complete('monitor state ')).toEqual([
      'list',
      'migrate',
      'mv',
      'pull',
      'push',
      'rebind',
      'rm',
      'show',
      'unlock',
    ]);
    expect(await complete('npx monitor st')).toEqual([
      'state\tList, show, move, forget, pull, push, migrate, unlock and rebind the state of the project',
      "status-pages\tStatus-page incidents (list, open, update, resolve) and a page's subscriptions",
    ]);
  });

  it('offers the logical ids of the last load and the sessions started here, asking no API', async () => {
    const dir = writeProject({
      'a.monitor.ts': `import { CheckGroup, EmailAlertChannel } from '@monitor/constructs';
new CheckGroup('payments-api', { name: 'Payments' });
new CheckGroup('search', { name: 'Search' });
new EmailAlertChannel('search', { address: 'search@example.com' });
`,
    });
    try {
      // Before any load there is nothing to offer, and no error.
      expect(await bash(['monitor', 'deploy', '--target', ''], dir)).toEqual([]);
      expect((await monitor(['validate'], { cwd: dir })).code).toBe(0);
      expect(await bash(['monitor', 'deploy', '--target', ''], dir)).toEqual([
        'AlertChannel:search',
        'CheckGroup:search',
        'payments-api',
      ]);
      expect(await bash(['monitor', 'diff', '--replace', 'pay'], dir)).toEqual(['payments-api']);
      expect(await bash(['monitor', 'routes', 'pay'], dir)).toEqual(['payments-api']);
      // Options still complete as options.
      expect(await bash(['monitor', 'routes', '--js'], dir)).toEqual(['--json']);
      const h = await emulatorForTests({
        fixture: {
          checks: [
            {
              id: '11111111-1111-4111-8111-111111111111',
              checkType: 'API',
              name: 'Pay',
              tags: ['prod'],
              locations: ['eu-west-1'],
              request: { method: 'GET', url: 'https://pay.example/' },
            },
            {
              id: '22222222-2222-4222-8222-222222222222',
              checkType: 'BROWSER',
              name: 'Web',
              tags: ['prod'],
              locations: ['eu-west-1'],
            },
          ],
        },
      });
      try {
        const triggered = await monitor(['trigger', '--tag', 'prod', '--json'], { cwd: dir, env: h.env });
        const ids = (JSON.parse(triggered.stdout).result.triggered as { checkSessionId: string }[]).map(
          (s) => s.checkSessionId,
        );
        expect(ids.length).toBeGreaterThan(0);
        expect((await bash(['monitor', 'sessions', 'get', ''], dir)).sort()).toEqual([...ids].sort());
        expect(h.emulator.requests.length).toBeGreaterThan(0);
        const before = h.emulator.requests.length;
        await bash(['monitor', 'sessions', 'wait', ''], dir);
        expect(h.emulator.requests.length).toBe(before);
      } finally {
        await h.close();
      }
    } finally {
      cleanup(dir);
    }
  });
});
