import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMAND_EXITS, EXIT, exitCodesLine } from './exit-codes.js';
import type { Io } from './io.js';
import { main, wantsJson } from './main.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

function captureIo(cwd: string, color = false): Io & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
    color,
    interactive: false,
    cwd,
    env: {},
  };
  return io;
}

describe('main', () => {
  it('returns the exit code instead of exiting, and writes results to stdout only', async () => {
    const io = captureIo(join(fixtures, 'valid'));
    expect(await main(['validate'], io)).toBe(EXIT.ok);
    expect(io.out).toBe('✓ valid: 2 constructs valid in 1 file\n');
    expect(io.err).toBe('');
  });

  it('exits 3 for an invalid project and colours only when asked', async () => {
    const plain = captureIo(join(fixtures, 'invalid-constructs'));
    expect(await main(['validate'], plain)).toBe(EXIT.invalid);
    expect(plain.out).not.toContain('\u001b[');
    const coloured = captureIo(join(fixtures, 'invalid-constructs'), true);
    await main(['validate'], coloured);
    expect(coloured.out).toContain('\u001b[31merror\u001b[39m');
  });

  it('turns a usage error into exit 1 with a hint on stderr', async () => {
    const io = captureIo(fixtures);
    expect(await main(['validate', '--no-such-flag'], io)).toBe(EXIT.error);
    expect(io.err).toMatch(/^error: Unknown argument/);
    expect(io.err).toContain('hint: run monitor --help');
  });

  it('reports an option value that does not parse with its hint, and no stack', async () => {
    for (const [args, hint] of [
      [['deploy', '--parallelism', 'abc'], 'e.g. --parallelism 4'],
      [['diff', '--timeout', '-1'], 'e.g. --timeout 60'],
    ] as const) {
      const io = captureIo(fixtures);
      expect(await main([...args], io)).toBe(EXIT.error);
      const value = args[2];
      expect(io.err).toBe(
        `error: ${args[1]} must be ${args[1] === '--timeout' ? 'a number of seconds above 0' : 'a whole number of at least 1'}, got "${value}"\nhint: ${hint}\n`,
      );
      const json = captureIo(fixtures);
      await main([...args, '--json'], json);
      expect(JSON.parse(json.out).error).toEqual({ code: 'usage', message: expect.any(String), hint });
    }
  });

  it('turns an engine error into exit 1 with its hint', async () => {
    const io = captureIo('/');
    expect(await main(['validate', '--config', 'nope/monitor.config.ts'], io)).toBe(EXIT.error);
    expect(io.err).toContain('error: config file /nope/monitor.config.ts does not exist');
    expect(io.err).toContain(
      'hint: check the path of the config file; name the config file with --config PATH',
    );
  });

  it('outside any project, the hint says how to start one: monitor init', async () => {
    const io = captureIo(mkdtempSync(join(tmpdir(), 'monitor-no-project-')));
    expect(await main(['validate'], io)).toBe(EXIT.error);
    expect(io.err).toContain('error: no monitor.config.ts found in');
    expect(io.err).toMatch(/^hint: run monitor init to scaffold a project here/m);
    rmSync(io.cwd, { recursive: true, force: true });
  });

  it('prints one --json envelope on stdout when a command fails, with the error and its hint', async () => {
    const missing = captureIo('/');
    expect(await main(['validate', '--json', '--config', 'nope/monitor.config.ts'], missing)).toBe(
      EXIT.error,
    );
    expect(JSON.parse(missing.out)).toMatchObject({
      formatVersion: 2,
      command: 'validate',
      ok: false,
      exitCode: 1,
      error: {
        code: 'config_not_found',
        hint: 'check the path of the config file; name the config file with --config PATH',
      },
    });
    expect(missing.err).toBe('');

    // No credentials: the project loads, connecting fails before any request.
    const noAccount = captureIo(join(fixtures, 'valid'));
    expect(await main(['diff', '--json'], noAccount)).toBe(EXIT.error);
    const envelope = JSON.parse(noAccount.out);
    expect(envelope).toMatchObject({ command: 'diff', ok: false, project: 'valid', plan: null });
    expect(envelope.error.code).toBe('config');
    expect(envelope.error.hint).toContain('--local');
  });

  it('answers --version without loading a parser, and --help lists every command', async () => {
    const version = captureIo('/');
    expect(await main(['--version'], version)).toBe(EXIT.ok);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = captureIo('/');
    expect(await main(['--help'], help)).toBe(EXIT.ok);
    for (const command of ['validate', 'diff', 'deploy', 'destroy', 'emulator'])
      expect(help.out).toContain(`monitor ${command}`);
  });

  it('--help lists every exit code of the table, each once', async () => {
    const help = captureIo('/');
    await main(['--help'], help);
    const paragraph = help.out.slice(help.out.indexOf('Exit codes:')).replace(/\s+/g, ' ');
    const listed = [...paragraph.matchAll(/(?:: |, )(\d+) /g)].map((m) => Number(m[1]));
    expect(listed).toEqual(Object.values(EXIT).sort((a, b) => a - b));
    expect(paragraph).toContain('7 a wait timed out');
    expect(paragraph).toContain('130 interrupted.');
  });

  it("each command's --help lists the exit codes it can end with, from the one table", async () => {
    for (const [command, expected] of [
      ['destroy', [0, 1, 3, 5, 6, 130]],
      ['import', [0, 1, 3, 5, 6, 130]],
      ['pull', [0, 1, 3, 5, 6, 130]],
      ['deploy', [0, 1, 3, 4, 5, 6, 7, 8, 130]],
      ['diff', [0, 1, 2, 3, 130]],
      ['checks', [0, 1, 3]],
      ['whoami', [0, 1, 3]],
    ] as const) {
      const help = captureIo('/');
      await main([command, '--help'], help);
      const paragraph = help.out.slice(help.out.indexOf('Exit codes:')).replace(/\s+/g, ' ');
      const listed = [...paragraph.matchAll(/(?:: |, )(\d+) /g)].map((m) => Number(m[1]));
      expect(listed, command).toEqual(expected);
      expect(paragraph).toBe(`${exitCodesLine(command)} `.replace(/\s+/g, ' '));
    }
  });

  it('the exit codes a command module returns are all in its line of the table', () => {
    const dir = fileURLToPath(new URL('./commands/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const command = file.replace(/\.ts$/, '');
      const used = new Set(
        [...readFileSync(join(dir, file), 'utf8').matchAll(/EXIT\.(\w+)/g)].map((m) => m[1]),
      );
      const listed = new Set(['ok', 'error', ...(COMMAND_EXITS[command] ?? [])]);
      expect(
        [...used].filter((name) => !listed.has(name as string)),
        command,
      ).toEqual([]);
    }
  });

  it('a command that reads an invalid config ends with 3, saying what is wrong in it', async () => {
    for (const command of [['checks', 'list'], ['whoami'], ['state', 'list']]) {
      const io = captureIo(join(fixtures, 'bad-config'));
      io.env = {};
      expect(await main(command, io), command.join(' ')).toBe(EXIT.invalid);
      expect(io.err).toContain('error: monitor.config.ts is not a valid config\n  config ');
    }
  });

  it('whoami without an API key says what it would use, then that the key is missing, with the hint', async () => {
    const io = captureIo(join(fixtures, 'valid'));
    io.env = {
      MONITOR_ACCOUNT_ID: '00000000-0000-4000-8000-00000000de00',
      MONITOR_BASE_URL: 'https://api.example.com',
    };
    expect(await main(['whoami'], io)).toBe(EXIT.error);
    expect(io.out).toMatch(/^project: +valid\n/);
    expect(io.out).toContain('account:  00000000-0000-4000-8000-00000000de00\n');
    expect(io.out).toContain('base URL: https://api.example.com\n');
    expect(io.out).toContain('API key:  not set (MONITOR_API_KEY)\n');
    expect(io.err).toMatch(/^error: MONITOR_API_KEY is not set/);
    expect(io.err).toContain('hint: export MONITOR_API_KEY');
    const nothing = captureIo(join(fixtures, 'valid'));
    expect(await main(['whoami', '--json'], nothing)).toBe(EXIT.error);
    expect(JSON.parse(nothing.out)).toMatchObject({
      result: { accountId: null, baseUrl: null, keySet: false, keyAccepted: false },
      error: { code: 'config', message: expect.stringContaining('MONITOR_API_KEY is not set') },
    });
  });

  it('tells --json in every form yargs takes, before any parser runs', () => {
    for (const argv of [
      ['diff', '--json'],
      ['diff', '--json=true'],
      ['diff', '--json', 'true'],
      ['diff', '--format=json'],
      ['diff', '--format', 'json'],
    ])
      expect(wantsJson(argv), argv.join(' ')).toBe(true);
    for (const argv of [
      ['diff'],
      ['diff', '--json=false'],
      ['diff', '--json', 'false'],
      ['diff', '--json', '--no-json'],
    ])
      expect(wantsJson(argv), argv.join(' ')).toBe(false);
  });

  it('suggests the nearest command and the nearest option of the command', async () => {
    const command = captureIo(join(fixtures, 'valid'));
    expect(await main(['chekcs', 'list'], command)).toBe(EXIT.error);
    expect(command.err).toContain('Did you mean checks?');
    const option = captureIo(join(fixtures, 'valid'));
    expect(await main(['diff', '--detailedexitcode'], option)).toBe(EXIT.error);
    expect(option.err).toContain(
      'error: Unknown argument: detailedexitcode; did you mean --detailed-exitcode?',
    );
    const far = captureIo(join(fixtures, 'valid'));
    await main(['trigger', '--zzzzzz'], far);
    expect(far.err).toContain('error: Unknown argument: zzzzzz\n');
  });

  it('prints a shell completion script, and completes commands, verbs and options', async () => {
    const script = captureIo(join(fixtures, 'valid'));
    expect(await main(['completion', 'bash'], script)).toBe(EXIT.ok);
    expect(script.out).toContain('###-begin-monitor-completions-###');
    const states = captureIo(join(fixtures, 'valid'));
    await main(['--get-yargs-completions', 'monitor', 'state', ''], states);
    expect(states.out.split('\n').filter((w) => w !== '')).toEqual([
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
    const verbs = captureIo(join(fixtures, 'valid'));
    await main(['--get-yargs-completions', 'monitor', 'checks', 'l'], verbs);
    expect(verbs.out.split('\n')).toEqual(expect.arrayContaining(['list', 'get']));
    const options = captureIo(join(fixtures, 'valid'));
    await main(['--get-yargs-completions', 'monitor', 'trigger', '--re'], options);
    expect(options.out.split('\n')).toEqual(expect.arrayContaining(['--reporter', '--refresh-cache']));
  });
});
