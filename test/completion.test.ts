import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileInTest } from './support/children.js';
import { monitor } from './support/harness.js';

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
async function bash(words: string[], cwd = project): Promise<string[]> {
  const array = words.map((w) => `'${w}'`).join(' ');
  const fn = words[0] === 'npx' ? '_monitor_npx_completions' : '_monitor_completions';
  const { stdout } = await run(
    'bash',
    [
      '-c',
      `source '${scripts.bash}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; ${fn}; printf '%s\\n' "\${COMPREPLY[@]}"`,
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
    // npx of anything else is left alone.
    expect(await bash(['npx', 'prettier', 'st'])).toEqual([]);
    // Outside a project, the monitor that wrote the script answers.
    expect(await bash(['monitor', 'state', 'mi'], nowhere)).toEqual(['migrate']);
  });

  it.runIf(has('zsh'))('zsh: the same words, with descriptions for _describe', async () => {
    const complete = async (service: string, words: string[]) => {
      const { stdout } = await run(
        'zsh',
        [
          '-f',
          '-c',
          `compdef() { :; }; _describe() { print -l -- "\${(@P)2}"; }; _default() { print DEFAULT; }; source '${scripts.zsh}'; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; service=${service}; _monitor`,
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
});
