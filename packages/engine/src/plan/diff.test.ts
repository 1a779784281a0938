import { KINDS } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import { type Change, diffPayload } from './diff.js';

const ctx = { kind: KINDS.CheckGroup, secretUnchanged: () => true };

/** The changes of a check group whose desired `tags` is `desired` and live `tags` is `live`. */
function tagChanges(desired: unknown[], live: unknown): Change[] {
  const out: Change[] = [];
  diffPayload({ tags: desired }, live === undefined ? {} : { tags: live }, ctx, out);
  return out;
}

describe('sets compare as sets', () => {
  it('order and repeats do not count', () => {
    expect(tagChanges(['a', 'b'], ['b', 'a', 'a'])).toEqual([]);
    expect(tagChanges([], undefined)).toEqual([]);
    expect(tagChanges([], null)).toEqual([]);
  });

  it('an item more or less, or another item, is a change', () => {
    expect(tagChanges(['a', 'b'], ['a'])).toEqual([{ path: 'tags', before: ['a'], after: ['a', 'b'] }]);
    expect(tagChanges(['a'], ['a', 'b'])).toHaveLength(1);
    expect(tagChanges(['a', 'b'], ['a', 'c'])).toHaveLength(1);
    expect(tagChanges(['a'], undefined)).toEqual([{ path: 'tags', before: null, after: ['a'] }]);
  });

  it('a string is not the number it spells, and a live value that is not a list differs', () => {
    expect(tagChanges(['1'], [1])).toHaveLength(1);
    expect(tagChanges(['a'], 'a')).toHaveLength(1);
  });

  it('items that are not strings compare by content, whatever their key order', () => {
    expect(tagChanges([{ a: 1, b: 2 }], [{ b: 2, a: 1 }])).toEqual([]);
    expect(tagChanges([{ a: 1 }], [{ a: 2 }])).toHaveLength(1);
  });
});

type Kind = keyof typeof KINDS;

/** The changes of a `kind` payload against a live one; `secretUnchanged` answers for masked secrets. */
function changesOf(
  kind: Kind,
  desired: Record<string, unknown>,
  live: Record<string, unknown>,
  options: {
    secretUnchanged?: boolean | undefined;
    refName?: (kind: string, id: unknown) => string | undefined;
  } = { secretUnchanged: true },
): Change[] {
  const out: Change[] = [];
  diffPayload(
    desired,
    live,
    {
      kind: KINDS[kind],
      secretUnchanged: () => options.secretUnchanged,
      ...(options.refName === undefined ? {} : { refName: options.refName }),
    },
    out,
  );
  return out;
}

describe('values', () => {
  it('null in code and a field the service leaves out mean the same; any value differs from null', () => {
    expect(changesOf('CheckGroup', { runtimeId: null }, {})).toEqual([]);
    expect(changesOf('CheckGroup', { runtimeId: null }, { runtimeId: null })).toEqual([]);
    // A prop set to undefined is sent as nothing: null and absent alike in the account.
    expect(changesOf('CheckGroup', { runtimeId: undefined }, { runtimeId: null })).toEqual([]);
    expect(changesOf('CheckGroup', { runtimeId: undefined }, {})).toEqual([]);
    expect(changesOf('CheckGroup', { runtimeId: null }, { runtimeId: '2024.02' })).toEqual([
      { path: 'runtimeId', before: '2024.02', after: null },
    ]);
    expect(changesOf('CheckGroup', { concurrency: 3 }, { concurrency: null })).toEqual([
      { path: 'concurrency', before: null, after: 3 },
    ]);
  });

  it('dates compare as instants', () => {
    const at = (startsAt: unknown) =>
      changesOf('MaintenanceWindow', { startsAt: '2026-12-01T10:00:00Z' }, { startsAt });
    expect(at('2026-12-01T10:00:00.000Z')).toEqual([]);
    expect(at('2026-12-01T11:00:00+01:00')).toEqual([]);
    expect(at('2026-12-01T10:30:00Z')).toEqual([
      { path: 'startsAt', before: '2026-12-01T10:30:00Z', after: '2026-12-01T10:00:00Z' },
    ]);
    expect(at(undefined)).toHaveLength(1);
  });

  it('the same text is the same value under every rule, even a date that does not parse', () => {
    // Date.parse gives NaN for both, and NaN is not NaN: compared as instants, it was a change forever.
    expect(changesOf('MaintenanceWindow', { startsAt: 'soon' }, { startsAt: 'soon' })).toEqual([]);
    expect(changesOf('MaintenanceWindow', { startsAt: 'soon' }, { startsAt: 'later' })).toHaveLength(1);
    const secret = { environmentVariables: [{ key: 'TOKEN', value: 's3', locked: false, secret: true }] };
    expect(changesOf('CheckGroup', secret, secret, { secretUnchanged: false })).toEqual([]);
  });

  it('records compare field by field, over the fields the code has; server fields never differ', () => {
    const desired = { apiCheckDefaults: { url: 'https://a.example.com', headers: [] } };
    expect(
      changesOf('CheckGroup', desired, {
        apiCheckDefaults: { url: 'https://a.example.com', headers: [], serverOnly: 1 },
      }),
    ).toEqual([]);
    expect(changesOf('CheckGroup', desired, { apiCheckDefaults: { url: 'https://b.example.com' } })).toEqual([
      { path: 'apiCheckDefaults.url', before: 'https://b.example.com', after: 'https://a.example.com' },
    ]);
    expect(changesOf('CheckGroup', desired, { apiCheckDefaults: null })).toEqual([
      { path: 'apiCheckDefaults', before: null, after: desired.apiCheckDefaults },
    ]);
  });

  it('lists that are neither sets nor keyed compare in order', () => {
    const a = { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' };
    const b = { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '500' };
    const desired = { apiCheckDefaults: { assertions: [a, b] } };
    expect(changesOf('CheckGroup', desired, { apiCheckDefaults: { assertions: [a, b] } })).toEqual([]);
    expect(changesOf('CheckGroup', desired, { apiCheckDefaults: { assertions: [b, a] } })).toEqual([
      { path: 'apiCheckDefaults.assertions', before: [b, a], after: [a, b] },
    ]);
  });

  it('a record is not a list of the same items, nor a list a record keyed by index', () => {
    expect(changesOf('CheckGroup', { apiCheckDefaults: { 0: 'x' } }, { apiCheckDefaults: ['x'] })).toEqual([
      { path: 'apiCheckDefaults', before: ['x'], after: { 0: 'x' } },
    ]);
    const assertion = { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' };
    expect(
      changesOf(
        'CheckGroup',
        { apiCheckDefaults: { assertions: [assertion] } },
        { apiCheckDefaults: { assertions: { 0: assertion } } },
      ),
    ).toEqual([{ path: 'apiCheckDefaults.assertions', before: { 0: assertion }, after: [assertion] }]);
  });

  it('a record with as many fields as the live one, but another field, is a change in that field', () => {
    expect(
      changesOf(
        'CheckGroup',
        { alertSettings: { reminders: { amount: 1 } } },
        { alertSettings: { reminders: { interval: 1 } } },
      ),
    ).toEqual([{ path: 'alertSettings.reminders.amount', before: null, after: 1 }]);
  });

  it('an item of a list in order with a field more in the account is a change of the list', () => {
    const a = { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' };
    expect(
      changesOf(
        'CheckGroup',
        { apiCheckDefaults: { assertions: [a] } },
        { apiCheckDefaults: { assertions: [{ ...a, extra: 1 }] } },
      ),
    ).toEqual([{ path: 'apiCheckDefaults.assertions', before: [{ ...a, extra: 1 }], after: [a] }]);
  });

  it('counts the top-level fields that did not change', () => {
    const out: Change[] = [];
    const unchanged = diffPayload(
      { name: 'G', concurrency: 3, muted: false, tags: ['a'], locations: ['x', 'y'] },
      { name: 'G', concurrency: 4, muted: false, tags: ['b'], locations: ['y', 'x'] },
      ctx,
      out,
    );
    expect(out.map((c) => c.path)).toEqual(['concurrency', 'tags']);
    // name and muted, the same values; locations, the same set.
    expect(unchanged).toBe(3);
  });
});

describe('keyed lists', () => {
  const variable = (key: string, value: string, secret = false) => ({ key, value, locked: false, secret });

  it('an item the code removed is a change to nothing, its secrets masked', () => {
    expect(
      changesOf(
        'CheckGroup',
        { environmentVariables: [variable('A', '1')] },
        { environmentVariables: [variable('A', '1'), variable('OLD', 'canary-secret', true)] },
      ),
    ).toEqual([
      {
        path: 'environmentVariables[OLD]',
        before: { key: 'OLD', value: '(sensitive value)', locked: false, secret: true },
        after: null,
      },
    ]);
  });

  it('an item the code adds is a change from nothing, its secrets masked', () => {
    expect(
      changesOf(
        'CheckGroup',
        { environmentVariables: [variable('TOKEN', 'canary-secret', true)] },
        { environmentVariables: [] },
      ),
    ).toEqual([
      {
        path: 'environmentVariables[TOKEN]',
        before: null,
        after: { key: 'TOKEN', value: '(sensitive value)', locked: false, secret: true },
      },
    ]);
  });

  it('a card renamed in the account shows as the server answers it, without what only the server keeps', () => {
    const card = (name: string) => ({ name, services: [{ id: 'svc-1' }] });
    const served = (name: string) => ({
      ...card(name),
      id: 'card-9',
      created_at: '2026-11-01T00:00:00.000Z',
      accountId: 'acct-1',
      services: [{ id: 'svc-1', created_at: '2026-11-01T00:00:00.000Z' }],
    });
    expect(changesOf('StatusPage', { cards: [card('Core')] }, { cards: [served('Core services')] })).toEqual([
      { path: 'cards[Core]', before: null, after: card('Core') },
      { path: 'cards[Core services]', before: card('Core services'), after: null },
    ]);
    // Where the code has no card at all, what a request takes (a card's id may be sent back).
    expect(changesOf('StatusPage', { cards: [] }, { cards: [served('Core')] })).toEqual([
      { path: 'cards[Core]', before: { ...card('Core'), id: 'card-9' }, after: null },
    ]);
  });

  describe('a key given more than once (query parameters such as ?tag=a&tag=b)', () => {
    const parameter = (value: string, key = 'tag') => ({ key, value });
    const groupWith = (...parameters: { key: string; value: string }[]) => ({
      apiCheckDefaults: { queryParameters: parameters },
    });

    it('pairs the items of one key in their order: only what moved is a change', () => {
      const desired = groupWith(parameter('a'), parameter('b'), parameter('2', 'v'));
      expect(changesOf('CheckGroup', desired, desired)).toEqual([]);
      expect(
        changesOf('CheckGroup', desired, groupWith(parameter('a'), parameter('b'), parameter('1', 'v'))),
      ).toEqual([{ path: 'apiCheckDefaults.queryParameters[v].value', before: '1', after: '2' }]);
      expect(
        changesOf(
          'CheckGroup',
          groupWith(parameter('a'), parameter('c')),
          groupWith(parameter('a'), parameter('b')),
        ),
      ).toEqual([{ path: 'apiCheckDefaults.queryParameters[tag].value', before: 'b', after: 'c' }]);
    });

    it('an item more or less of a key is one added or removed', () => {
      const [a, b, c] = [parameter('a'), parameter('b'), parameter('c')];
      expect(changesOf('CheckGroup', groupWith(a, b, c), groupWith(a, b))).toEqual([
        { path: 'apiCheckDefaults.queryParameters[tag]', before: null, after: c },
      ]);
      expect(changesOf('CheckGroup', groupWith(a), groupWith(a, b))).toEqual([
        { path: 'apiCheckDefaults.queryParameters[tag]', before: b, after: null },
      ]);
    });
  });

  it('a reference to a resource this deploy creates is shown by its logical id, at any depth', () => {
    expect(
      changesOf(
        'CheckGroup',
        { alertChannelSubscriptions: [{ alertChannelId: { $ref: 'AlertChannel:mail' }, activated: true }] },
        { alertChannelSubscriptions: [] },
      ),
    ).toEqual([
      {
        path: 'alertChannelSubscriptions[mail]',
        before: null,
        after: { alertChannelId: 'AlertChannel:mail', activated: true },
      },
    ]);
    expect(
      changesOf(
        'StatusPage',
        { cards: [{ name: 'Core', services: [{ id: { $ref: 'StatusPageService:api' } }] }] },
        { cards: [] },
      ),
    ).toEqual([
      {
        path: 'cards[Core]',
        before: null,
        after: { name: 'Core', services: [{ id: 'StatusPageService:api' }] },
      },
    ]);
  });

  it('an item keyed by a live reference is named by the logical id of what it refers to', () => {
    // Physical ids compare as text, as ByPhysicalId does.
    const refName = (kind: string, id: unknown) =>
      kind === 'AlertChannel' && String(id) === '3' ? 'mail' : undefined;
    expect(
      changesOf(
        'CheckGroup',
        { alertChannelSubscriptions: [] },
        { alertChannelSubscriptions: [{ alertChannelId: 3, activated: true }] },
        { refName },
      ).map((c) => c.path),
    ).toEqual(['alertChannelSubscriptions[mail]']);
    // A key that is no reference is its own name, whatever resource has that id.
    expect(
      changesOf(
        'CheckGroup',
        { environmentVariables: [] },
        { environmentVariables: [variable('3', 'x')] },
        { refName },
      ).map((c) => c.path),
    ).toEqual(['environmentVariables[3]']);
  });
});

describe('secrets', () => {
  const slack = (url: string) => ({ type: 'SLACK', config: { url } });
  const masked = { before: '(sensitive value)', after: '(sensitive value)', sensitive: true };

  it('a secret the service returns is compared with it, whatever the hash in state says', () => {
    expect(changesOf('AlertChannel', slack('https://hooks/a'), slack('https://hooks/a'))).toEqual([]);
    expect(changesOf('AlertChannel', slack('https://hooks/a'), slack('https://hooks/b'))).toEqual([
      { path: 'config.url', ...masked },
    ]);
  });

  it.each([
    { name: 'empty', live: '' },
    { name: 'left out', live: undefined },
  ])('a secret the service returns $name is compared by the hash in state', ({ live }) => {
    const desired = slack('https://hooks/a');
    const liveChannel = { type: 'SLACK', config: live === undefined ? {} : { url: live } };
    expect(changesOf('AlertChannel', desired, liveChannel, { secretUnchanged: true })).toEqual([]);
    expect(changesOf('AlertChannel', desired, liveChannel, { secretUnchanged: false })).toEqual([
      { path: 'config.url', ...masked },
    ]);
    expect(changesOf('AlertChannel', desired, liveChannel, { secretUnchanged: undefined })).toEqual([
      { path: 'config.url', ...masked, unverified: true },
    ]);
  });

  it('a variable that is not secret is compared and shown as it is', () => {
    expect(
      changesOf(
        'CheckGroup',
        { environmentVariables: [{ key: 'A', value: 'x', locked: false, secret: false }] },
        { environmentVariables: [{ key: 'A', value: 'y', locked: false, secret: false }] },
        { secretUnchanged: true },
      ),
    ).toEqual([{ path: 'environmentVariables[A].value', before: 'y', after: 'x' }]);
  });
});
