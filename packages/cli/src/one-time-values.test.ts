import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Io } from './io.js';
import { handOver } from './one-time-values.js';
import { Output } from './output.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function context(interactive: boolean, json = false) {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-one-time-'));
  dirs.push(dir);
  const io: Io & { err: string } = {
    err: '',
    stdout: () => {},
    stderr: (t) => {
      io.err += t;
    },
    color: false,
    interactive,
    cwd: dir,
    env: {},
  };
  return { dir, io, out: new Output('deploy', json) };
}

const KEY = { key: 'Dashboard:ops', path: 'keys[0].rawKey', value: 'dk_0123456789abcdef0123456789abcdef' };

describe('one-time values', () => {
  it('on a terminal: written to a file only the user can read, and shown once', () => {
    const { dir, io, out } = context(true);
    const now = new Date('2026-11-24T10:00:00Z');
    const shown = handOver([KEY], { io, out }, { projectDir: dir, now });
    const file = join(dir, '.monitor', 'secrets', 'deploy-2026-11-24T10-00-00-000Z.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      'Dashboard:ops': { 'keys[0].rawKey': KEY.value },
    });
    expect(readFileSync(join(dir, '.monitor', 'secrets', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(io.err.split(KEY.value)).toHaveLength(2);
    expect(io.err).toContain('written to .monitor/secrets/deploy-2026-11-24T10-00-00-000Z.json');
    expect(shown).toEqual([
      {
        key: 'Dashboard:ops',
        path: 'keys[0].rawKey',
        file: '.monitor/secrets/deploy-2026-11-24T10-00-00-000Z.json',
      },
    ]);
  });

  it('in CI and with --json: never printed, only the file named', () => {
    for (const json of [false, true]) {
      const { dir, io, out } = context(false, json);
      const shown = handOver([KEY], { io, out }, { projectDir: dir, file: 'keys.json' });
      expect(io.err).not.toContain(KEY.value);
      expect(JSON.stringify(shown)).not.toContain(KEY.value);
      expect(readFileSync(join(dir, 'keys.json'), 'utf8')).toContain(KEY.value);
    }
  });

  it('adds to a --secrets-out file written before, and refuses one that is not its own, naming it', () => {
    const { dir, io, out } = context(false);
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify({ 'Dashboard:old': { 'keys[0].rawKey': 'dk_old' } }));
    handOver([KEY], { io, out }, { projectDir: dir, file });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')))).toEqual(['Dashboard:old', 'Dashboard:ops']);
    writeFileSync(file, 'not json');
    expect(() => handOver([KEY], { io, out }, { projectDir: dir, file })).toThrow(
      /cannot add to .*keys\.json/,
    );
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});
