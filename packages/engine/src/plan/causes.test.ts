import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretHasher } from '../hash.js';
import type { StateEntry } from '../state/state.js';
import {
  type CauseContext,
  fieldHashesOf,
  labelCauses,
  packFieldHashes,
  recordedFieldHashes,
  unpackFieldHashes,
} from './causes.js';
import type { Change } from './diff.js';

const unkeyed = secretHasher(undefined, 'salt');
const keyed = secretHasher('state-secret', 'salt');

describe('fieldHashesOf: a field hashes the same however the service orders its sets and keyed lists', () => {
  const hashOf = (resource: Record<string, unknown>, field: string) =>
    fieldHashesOf('CheckGroup', resource, [field], unkeyed)[field];

  it.each([
    ['a set (tags)', 'tags', { tags: ['a', 'b'] }, { tags: ['b', 'a'] }],
    [
      'a keyed list (environmentVariables by key)',
      'environmentVariables',
      {
        environmentVariables: [
          { key: 'A', value: '1' },
          { key: 'B', value: '2' },
        ],
      },
      {
        environmentVariables: [
          { key: 'B', value: '2' },
          { key: 'A', value: '1' },
        ],
      },
    ],
    [
      'a keyed list inside an object (apiCheckDefaults.headers by key)',
      'apiCheckDefaults',
      {
        apiCheckDefaults: {
          headers: [
            { key: 'x', value: '1' },
            { key: 'y', value: '2' },
          ],
        },
      },
      {
        apiCheckDefaults: {
          headers: [
            { key: 'y', value: '2' },
            { key: 'x', value: '1' },
          ],
        },
      },
    ],
  ])('%s', (_name, field, one, other) => {
    expect(hashOf(one, field)).toBe(hashOf(other, field));
  });

  it.each([
    ['a set whose items differ', 'tags', { tags: ['a', 'b'] }, { tags: ['a', 'c'] }],
    [
      'a keyed list whose values differ',
      'environmentVariables',
      { environmentVariables: [{ key: 'A', value: '1' }] },
      { environmentVariables: [{ key: 'A', value: '2' }] },
    ],
    [
      'a list that is neither, reordered (order is the value)',
      'apiCheckDefaults',
      { apiCheckDefaults: { assertions: [{ source: 'A' }, { source: 'B' }] } },
      { apiCheckDefaults: { assertions: [{ source: 'B' }, { source: 'A' }] } },
    ],
  ])('%s is a change', (_name, field, one, other) => {
    expect(hashOf(one, field)).not.toBe(hashOf(other, field));
  });

  it('orders keyed lists inside keyed lists: a status page has cards by name, their services by id', () => {
    const page = (cards: unknown) => fieldHashesOf('StatusPage', { cards }, ['cards'], unkeyed).cards;
    const a = { name: 'A', services: [{ id: 's1' }, { id: 's2' }] };
    const b = { name: 'B', services: [{ id: 's3' }] };
    const aReordered = { services: [{ id: 's2' }, { id: 's1' }], name: 'A' };
    expect(page([a, b])).toBe(page([b, aReordered]));
    expect(page([a, b])).not.toBe(page([{ ...a, services: [{ id: 's1' }] }, b]));
  });

  it('hashes a field with no set or keyed list under it by its canonical JSON', () => {
    const hashes = (resource: Record<string, unknown>) =>
      fieldHashesOf('CheckGroup', resource, ['apiCheckDefaults', 'name'], unkeyed);
    const one = hashes({
      name: 'n',
      apiCheckDefaults: { url: 'u', assertions: [{ source: 'A', target: '1' }] },
    });
    const keysMoved = hashes({
      apiCheckDefaults: { assertions: [{ target: '1', source: 'A' }], url: 'u' },
      name: 'n',
    });
    expect(keysMoved).toEqual(one);
    expect(one.name).toBe(createHash('sha256').update('"n"').digest('hex').slice(0, 8));
  });

  it('hashes a value by its JSON alone: small or large, the first time or again, past the kept few', () => {
    const oracle = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 8);
    const long = 'x'.repeat(100);
    for (let round = 0; round < 2; round++) {
      expect(
        fieldHashesOf(
          'CheckGroup',
          { name: 'n2', muted: true, tags: [long] },
          ['name', 'muted', 'tags'],
          unkeyed,
        ),
      ).toEqual({
        name: oracle('"n2"'),
        muted: oracle('true'),
        tags: oracle(`["${long}"]`),
      });
    }
    const names = Array.from({ length: 5000 }, (_, i) => `group ${i}`);
    const hashed = names.map((name) => fieldHashesOf('CheckGroup', { name }, ['name'], unkeyed).name);
    expect(hashed).toEqual(names.map((name) => oracle(JSON.stringify(name))));
  });

  it('hashes an absent field as null, in 8 hex digits', () => {
    expect(hashOf({}, 'tags')).toBe(hashOf({ tags: null }, 'tags'));
    expect(hashOf({}, 'tags')).toMatch(/^[0-9a-f]{8}$/);
  });

  it('hashes a secret by its keyed hash: without the state secret every secret hashes alike', () => {
    const withSecret = (value: string, secrets: typeof keyed) =>
      fieldHashesOf(
        'CheckGroup',
        { environmentVariables: [{ key: 'K', value, secret: true }] },
        ['environmentVariables'],
        secrets,
      ).environmentVariables;
    expect(withSecret('one', keyed)).not.toBe(withSecret('two', keyed));
    expect(withSecret('one', keyed)).toBe(withSecret('one', keyed));
    // Unkeyed, the value is not in the hash at all: it cannot be told, nor guessed from state.
    expect(withSecret('one', unkeyed)).toBe(withSecret('two', unkeyed));
    // A variable that is not secret is hashed by its value, keyed or not.
    const plain = (value: string) =>
      fieldHashesOf(
        'CheckGroup',
        { environmentVariables: [{ key: 'K', value }] },
        ['environmentVariables'],
        unkeyed,
      ).environmentVariables;
    expect(plain('one')).not.toBe(plain('two'));
  });
});

describe('packFieldHashes and unpackFieldHashes', () => {
  it('round-trip the hashes of the fields that have both, tagged with the order of the fields', () => {
    const packed = packFieldHashes(
      'CheckGroup',
      { name: 'aaaaaaaa', tags: 'cccccccc' },
      { name: 'bbbbbbbb' },
    );
    const [tag, body] = packed.split(':');
    expect(tag).toHaveLength(6);
    // One part per field of the kind; `tags` has no account hash: `-`, not half a pair.
    expect(body?.split('.').filter((p) => p !== '-')).toEqual(['aaaaaaaabbbbbbbb']);
    expect(body).not.toContain('undefined');
    const unpacked = unpackFieldHashes('CheckGroup', packed);
    expect(unpacked?.get('name')).toEqual({ code: 'aaaaaaaa', account: 'bbbbbbbb' });
    // A field with one side only, and one not there, are unknown: their changes take the resource's cause.
    expect(unpacked?.has('tags')).toBe(false);
    expect(unpacked?.has('locations')).toBe(false);
    // A state of many resources stays small: 16 hex digits a field.
    expect(packed.length).toBeLessThan(20 * 17 + 10);
  });

  it('packs `-` for a field with an account hash and no code hash too', () => {
    const packed = packFieldHashes('CheckGroup', {}, { name: 'bbbbbbbb' });
    expect(
      packed
        .split(':')[1]
        ?.split('.')
        .every((p) => p === '-'),
    ).toBe(true);
  });

  it('gives nothing for hashes packed for another order of fields, or another count of them', () => {
    const packed = packFieldHashes('CheckGroup', { name: 'aaaaaaaa' }, { name: 'bbbbbbbb' });
    const [tag, body = ''] = packed.split(':');
    expect(unpackFieldHashes('CheckGroup', `zzzzzz:${body}`)).toBeUndefined();
    expect(unpackFieldHashes('CheckGroup', `${tag}:${body}.-`)).toBeUndefined();
    expect(unpackFieldHashes('Dashboard', packed)).toBeUndefined();
  });

  it('recordedFieldHashes pairs the code hashes with the live resource’s', () => {
    const live = { name: 'api', tags: ['b', 'a'] };
    const code = fieldHashesOf('CheckGroup', { name: 'api', tags: ['a', 'b'] }, ['name', 'tags'], unkeyed);
    const unpacked = unpackFieldHashes('CheckGroup', recordedFieldHashes(code, 'CheckGroup', live, unkeyed));
    expect(unpacked?.get('tags')).toEqual({ code: code.tags, account: code.tags });
    expect(unpacked?.get('name')).toEqual({ code: code.name, account: code.name });
  });
});

describe('labelCauses: each changed field told by what moved since the last apply', () => {
  const applied = { name: 'api', tags: ['a'], muted: false };
  const fields = ['name', 'tags', 'muted'];
  const entryOf = (code: Record<string, unknown>, live: Record<string, unknown>): StateEntry =>
    ({
      fieldHashes: recordedFieldHashes(
        fieldHashesOf('CheckGroup', code, fields, unkeyed),
        'CheckGroup',
        live,
        unkeyed,
      ),
    }) as StateEntry;
  const change = (path: string, extra: Partial<Change> = {}): Change =>
    ({ path, before: 'x', after: 'y', ...extra }) as Change;
  const label = (
    code: Record<string, unknown>,
    live: Record<string, unknown>,
    options: { entry?: StateEntry | undefined; drift?: boolean; secrets?: CauseContext['secrets'] } = {},
  ) =>
    labelCauses([change('name'), change('tags[0]'), change('muted')], {
      kind: 'CheckGroup',
      entry: 'entry' in options ? options.entry : entryOf(applied, applied),
      codeHashes: fieldHashesOf('CheckGroup', code, fields, unkeyed),
      live,
      secrets: options.secrets ?? unkeyed,
      drift: options.drift ?? false,
    }).map((c) => c.cause);

  it('code, account, both, and neither (told by drift) per field', () => {
    const code = { name: 'api-2', tags: ['a'], muted: true };
    const live = { name: 'api', tags: ['z'], muted: 'shape' };
    // name moved in the code only; tags in the account only; muted in both.
    expect(label(code, live)).toEqual(['code', 'account', 'both']);
  });

  it('a field the code moved is the code’s even when the resource drifted', () => {
    expect(label({ ...applied, name: 'api-2' }, applied, { drift: true })).toEqual([
      'code',
      'account',
      'account',
    ]);
  });

  it('a changed field the code has no hash of is the drift’s or the code’s', () => {
    const ctx = (drift: boolean): CauseContext => ({
      kind: 'CheckGroup',
      entry: entryOf(applied, applied),
      codeHashes: fieldHashesOf('CheckGroup', applied, ['tags', 'muted'], unkeyed),
      live: { ...applied, name: 'x' },
      secrets: unkeyed,
      drift,
    });
    expect(labelCauses([change('name')], ctx(true))[0]?.cause).toBe('account');
    expect(labelCauses([change('name')], ctx(false))[0]?.cause).toBe('code');
  });

  it('a field neither side moved, yet different (another shape), is the drift’s or the code’s', () => {
    expect(label(applied, applied, { drift: true })).toEqual(['account', 'account', 'account']);
    expect(label(applied, applied, { drift: false })).toEqual(['code', 'code', 'code']);
  });

  it('an adoption (no entry) is the code’s, drifted or not', () => {
    expect(label(applied, { name: 'other' }, { entry: undefined, drift: true })).toEqual([
      'code',
      'code',
      'code',
    ]);
  });

  it('without recorded hashes (an entry of before they were kept), the cause is the drift’s or the code’s', () => {
    const bare = {} as StateEntry;
    expect(label({ name: 'api-2' }, { name: 'x' }, { entry: bare, drift: true })).toEqual([
      'account',
      'account',
      'account',
    ]);
    expect(label({ name: 'api-2' }, { name: 'x' }, { entry: bare, drift: false })).toEqual([
      'code',
      'code',
      'code',
    ]);
  });

  it('a secret without the state secret is the code’s: its change cannot be told', () => {
    const live = { name: 'api', tags: ['z'], muted: false };
    const causes = labelCauses([change('tags[0]', { sensitive: true })], {
      kind: 'CheckGroup',
      entry: entryOf(applied, applied),
      codeHashes: fieldHashesOf('CheckGroup', applied, fields, unkeyed),
      live,
      secrets: unkeyed,
      drift: true,
    });
    expect(causes.map((c) => c.cause)).toEqual(['code']);
    // With the secret the same change is told: the account moved.
    const told = labelCauses([change('tags[0]', { sensitive: true })], {
      kind: 'CheckGroup',
      entry: entryOf(applied, applied),
      codeHashes: fieldHashesOf('CheckGroup', applied, fields, unkeyed),
      live,
      secrets: keyed,
      drift: true,
    });
    expect(told.map((c) => c.cause)).toEqual(['account']);
  });

  it('leaves the changes given as they were', () => {
    const given = [change('name')];
    labelCauses(given, {
      kind: 'CheckGroup',
      entry: entryOf(applied, applied),
      codeHashes: fieldHashesOf('CheckGroup', { ...applied, name: 'b' }, fields, unkeyed),
      live: applied,
      secrets: unkeyed,
      drift: false,
    });
    expect(given[0]).not.toHaveProperty('cause');
  });
});
