import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckGroup, createSession, Dashboard, synth } from '@monitor/constructs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ResponseCache, ValidationCache } from './validation-cache.js';

/** A project cache directory and a user cache directory (where the key lives), both temporary. */
function dirs(): { cacheDir: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'monitor-validated-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return { cacheDir: root, env: { XDG_CACHE_HOME: join(root, 'user-cache') } };
}

function open(d: { cacheDir: string; env: NodeJS.ProcessEnv }, schemas = 'schemas-1'): ValidationCache {
  const cache = ValidationCache.open(d.cacheDir, { env: d.env, schemas });
  if (cache === undefined) throw new Error('no cache');
  return cache;
}

const payload = { name: 'Payments', tags: ['a', 'b'], nested: { n: 1, ok: true, none: null } };

describe('ValidationCache', () => {
  it('gives equal payloads one key and every difference another', () => {
    const cache = open(dirs());
    const key = cache.keyOf('CheckGroup', payload);
    expect(key).toBeDefined();
    expect(cache.keyOf('CheckGroup', structuredClone(payload))).toBe(key);
    expect(cache.keyOf('Dashboard', payload)).not.toBe(key);
    expect(cache.keyOf('CheckGroup', { ...payload, name: 'payments' })).not.toBe(key);
    expect(cache.keyOf('CheckGroup', { ...payload, tags: ['b', 'a'] })).not.toBe(key);
    expect(cache.keyOf('CheckGroup', { ...payload, nested: { n: '1', ok: true, none: null } })).not.toBe(key);
  });

  it('keeps no payload that JSON cannot tell apart from another', () => {
    const cache = open(dirs());
    class Props {
      name = 'x';
    }
    const sparse: unknown[] = [];
    sparse[1] = 'b';
    for (const value of [
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      new Date(0),
      new Props(),
      sparse,
      () => 1,
      Symbol('s'),
      10n,
      new Map(),
      Object.assign(Object.create({ inherited: 1 }), { name: 'x' }),
    ]) {
      expect(cache.keyOf('CheckGroup', { ...payload, field: value }), String(value)).toBeUndefined();
      expect(cache.keyOf('CheckGroup', { ...payload, list: [value] }), String(value)).toBeUndefined();
    }
    expect(cache.keyOf('CheckGroup', Object.assign(Object.create(null), payload))).toBeDefined();
  });

  it('keeps the payloads a run added for the next run, and nothing else', () => {
    const d = dirs();
    const first = open(d);
    const valid = first.keyOf('CheckGroup', payload) as string;
    const other = first.keyOf('CheckGroup', { ...payload, name: 'other' }) as string;
    expect(first.has(valid)).toBe(false);
    first.add(valid);
    first.save();
    const next = open(d);
    expect(next.has(valid)).toBe(true);
    expect(next.has(other)).toBe(false);
  });

  it('is empty for another monitor, another user key, or a file that was damaged or edited', () => {
    const d = dirs();
    const first = open(d);
    const key = first.keyOf('CheckGroup', payload) as string;
    first.add(key);
    first.add(first.keyOf('CheckGroup', { ...payload, name: 'second' }) as string);
    first.save();
    const file = join(d.cacheDir, 'validated.json');
    const good = readFileSync(file, 'utf8');

    expect(open(d, 'schemas-2').has(key)).toBe(false);
    const otherUser = { ...d, env: { XDG_CACHE_HOME: join(d.cacheDir, 'another-user') } };
    expect(open(otherUser).keyOf('CheckGroup', payload)).not.toBe(key);

    const forged = JSON.parse(good) as { keys: string[] };
    const edits = [
      good.slice(0, -5),
      good.replace(key, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`),
      JSON.stringify({ ...forged, keys: [...forged.keys, 'an-added-key'] }),
      JSON.stringify({ ...forged, format: 2 }),
      'null',
      '',
    ];
    for (const text of edits) {
      writeFileSync(file, text);
      expect(open(d).has(key), text.slice(0, 40)).toBe(false);
    }
  });

  it('makes its key once, readable by the user alone', () => {
    const d = dirs();
    const key = open(d).keyOf('CheckGroup', payload);
    expect(open(d).keyOf('CheckGroup', payload)).toBe(key);
    const keyFile = join(d.env.XDG_CACHE_HOME as string, 'monitor', 'payload-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('is none when the key cannot be kept', () => {
    const d = dirs();
    const blocked = join(d.cacheDir, 'a-file');
    writeFileSync(blocked, '');
    expect(ValidationCache.open(d.cacheDir, { env: { XDG_CACHE_HOME: blocked } })).toBeUndefined();
  });
});

describe('ResponseCache', () => {
  const openResponses = (d: { cacheDir: string; env: NodeJS.ProcessEnv }, schemas = 'schemas-1') => {
    const cache = ResponseCache.open(d.cacheDir, { env: d.env, schemas });
    if (cache === undefined) throw new Error('no cache');
    return cache;
  };
  const page = '[{"id":1,"name":"Payments"}]';

  it('keys a body by its endpoint and every byte of it, with the user key', () => {
    const d = dirs();
    const cache = openResponses(d);
    const key = cache.keyOf('GET /v1/check-groups', page);
    expect(cache.keyOf('GET /v1/check-groups', page)).toBe(key);
    expect(cache.keyOf('GET /v1/dashboards', page)).not.toBe(key);
    expect(cache.keyOf('GET /v1/check-groups', page.replace('Payments', 'payments'))).not.toBe(key);
    expect(cache.keyOf('GET /v1/check-groups', `${page} `)).not.toBe(key);
    // Keyed: another user's key hashes the same body otherwise.
    const otherUser = { ...d, env: { XDG_CACHE_HOME: join(d.cacheDir, 'another-user') } };
    expect(openResponses(otherUser).keyOf('GET /v1/check-groups', page)).not.toBe(key);
  });

  it('keeps the bodies a run added in a file of its own, for the same monitor only', () => {
    const d = dirs();
    const first = openResponses(d);
    const key = first.keyOf('GET /v1/check-groups', page) as string;
    expect(first.has(key)).toBe(false);
    first.add(key);
    first.save();
    expect(existsSync(join(d.cacheDir, 'responses.json'))).toBe(true);
    expect(existsSync(join(d.cacheDir, 'validated.json'))).toBe(false);
    expect(openResponses(d).has(key)).toBe(true);
    expect(openResponses(d, 'schemas-2').has(key)).toBe(false);
    expect(open(d).has(key)).toBe(false);
  });
});

describe('synthesis with the cache', () => {
  it('checks each payload until it passed once, and an invalid one every time', () => {
    const d = dirs();
    const run = (concurrency: number) => {
      createSession();
      new CheckGroup('group', { name: 'Group', concurrency });
      new Dashboard('board', { header: 'Board' });
      const cache = open(d);
      const result = synth({ validated: cache });
      cache.save();
      return result.diagnostics.map((x) => `${x.logicalId}: ${x.path}`);
    };
    expect(run(0)).toEqual(['group: concurrency']);
    expect(run(0)).toEqual(['group: concurrency']);
    expect(run(2)).toEqual([]);
    // Back to the invalid value: its payload was never kept as valid.
    expect(run(0)).toEqual(['group: concurrency']);
    const kept = (JSON.parse(readFileSync(join(d.cacheDir, 'validated.json'), 'utf8')) as { keys: string[] })
      .keys;
    expect(kept).toHaveLength(2);
  });
});
