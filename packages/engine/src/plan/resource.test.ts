import { describe, expect, it } from 'vitest';
import { secretHasher } from '../hash.js';
import {
  appliedHash,
  describeIdentity,
  identityOf,
  isCreatedFrom,
  liveReferences,
  matchIdentity,
  resolveRefs,
  uniqueKeysOf,
} from './resource.js';
import type { LiveResource } from './types.js';

/** What the planner asks of one resource, by its kind's definition. */

describe('identityOf: what tells a resource from another that later holds its id', () => {
  it.each([
    {
      kind: 'CheckGroup',
      resource: { name: 'Payments', created_at: '2026-11-01' },
      identity: 'v2 {"created":"2026-11-01","key":"name:Payments"}',
    },
    // The natural key, as the service compares it, before the name.
    {
      kind: 'StatusPage',
      resource: { name: 'Acme', url: 'Acme-Status' },
      identity: 'v2 {"key":"url:acme-status"}',
    },
    {
      kind: 'Dashboard',
      resource: { header: 'Ops', customUrl: 'ops' },
      identity: 'v2 {"key":"customUrl:ops"}',
    },
    // No natural key: the type, and the name people know it by.
    {
      kind: 'AlertChannel',
      resource: { type: 'EMAIL', config: { address: 'ops@example.com' } },
      identity: 'v2 {"type":"EMAIL","key":"name:ops@example.com"}',
    },
    // No name (a Slack channel's url is a credential, never an identity): its type and creation.
    {
      kind: 'AlertChannel',
      resource: { type: 'SLACK', config: { url: 'https://hooks/x' }, created_at: '2026-11-01T10:00:00.000Z' },
      identity: 'v2 {"type":"SLACK","created":"2026-11-01T10:00:00.000Z"}',
    },
    { kind: 'CheckGroup', resource: {}, identity: undefined },
  ] as const)('$kind $resource → $identity', ({ kind, resource, identity }) => {
    expect(identityOf(kind, resource)).toBe(identity);
  });
});

describe('matchIdentity: is the resource at a recorded id the one recorded', () => {
  const group = (name: string, created_at = '2026-11-01') => ({ name, created_at });
  const recorded = identityOf('CheckGroup', group('Checkout (prod)'));
  it.each([
    { what: 'the same resource', live: group('Checkout (prod)'), match: 'same' },
    {
      what: 'renamed in the UI, created the same day (the service gives groups a date alone)',
      live: group('Checkout EU'),
      match: 'renamed-day',
    },
    {
      what: 'created on another day: another resource',
      live: group('Checkout EU', '2026-11-02'),
      match: 'other',
    },
    {
      what: 'a creation time with the clock, on the recorded day',
      live: group('Checkout (prod)', '2026-11-01T08:00:00.000Z'),
      match: 'same',
    },
  ] as const)('$what → $match', ({ live, match }) => {
    expect(matchIdentity('CheckGroup', recorded, live)).toBe(match);
  });

  it('a creation time to the second tells a rename; a finer one in one answer than another is no difference', () => {
    const made = identityOf('CheckGroup', group('Old', '2026-11-01T10:00:00.123Z'));
    expect(matchIdentity('CheckGroup', made, group('New', '2026-11-01T10:00:00Z'))).toBe('renamed');
    expect(matchIdentity('CheckGroup', made, group('New', '2026-11-01T10:00:01Z'))).toBe('other');
    // A date-time with an offset is the UTC day it falls on.
    const late = identityOf('CheckGroup', group('Old', '2026-11-01T23:30:00-02:00'));
    expect(matchIdentity('CheckGroup', late, group('Old', '2026-11-02'))).toBe('same');
    expect(matchIdentity('CheckGroup', late, group('New', '2026-11-02'))).toBe('renamed-day');
  });

  it('an alert channel of another type is never the one recorded, whatever its name', () => {
    const slack = identityOf('AlertChannel', { type: 'SLACK', config: {}, created_at: '2026-11-01' });
    expect(
      matchIdentity('AlertChannel', slack, {
        type: 'EMAIL',
        config: { address: 'a@x' },
        created_at: '2026-11-01',
      }),
    ).toBe('other');
    expect(
      matchIdentity('AlertChannel', slack, { type: 'SLACK', config: {}, created_at: '2026-11-01' }),
    ).toBe('same');
  });

  it('without a creation time on both sides, a key that moved cannot be told: unsure; an older identity holds the key alone', () => {
    const page = identityOf('StatusPage', { name: 'P', url: 'acme' });
    expect(matchIdentity('StatusPage', page, { name: 'P', url: 'other' })).toBe('unsure');
    expect(matchIdentity('CheckGroup', 'name:Checkout (prod)', group('Checkout (prod)'))).toBe('same');
    expect(matchIdentity('CheckGroup', 'name:Checkout (prod)', group('Checkout EU'))).toBe('unsure');
    expect(matchIdentity('CheckGroup', undefined, group('Anything'))).toBe('same');
  });

  it('describes an identity for people', () => {
    expect(describeIdentity(recorded)).toBe('name:Checkout (prod)');
    expect(
      describeIdentity(identityOf('AlertChannel', { type: 'SLACK', config: {}, created_at: '2026-11-01' })),
    ).toBe('a SLACK channel made 2026-11-01');
    expect(describeIdentity('name:Old')).toBe('name:Old');
    expect(describeIdentity(undefined)).toBe('(nothing to tell it by)');
  });
});

describe('uniqueKeysOf: the keys the service keeps unique', () => {
  it('compares them lower-cased, and never counts empty or absent values', () => {
    expect(uniqueKeysOf('StatusPage', { name: 'P', url: 'Acme', customDomain: '' })).toEqual([
      { field: 'url', value: 'Acme', key: 'url:acme' },
    ]);
    expect(uniqueKeysOf('Dashboard', { customUrl: 'ops', customDomain: null })).toEqual([
      { field: 'customUrl', value: 'ops', key: 'customUrl:ops' },
    ]);
    expect(uniqueKeysOf('Dashboard', { customUrl: 'ops', customDomain: 'Status.Acme.com' })).toHaveLength(2);
    expect(uniqueKeysOf('CheckGroup', { name: 'G' })).toEqual([]);
  });
});

describe('liveReferences: the resources a live resource refers to', () => {
  it.each([
    {
      kind: 'CheckGroup',
      resource: { id: 1, alertChannelSubscriptions: [{ alertChannelId: 3 }, { alertChannelId: 4 }] },
      refs: [
        { kind: 'AlertChannel', id: 3 },
        { kind: 'AlertChannel', id: 4 },
      ],
    },
    {
      kind: 'StatusPage',
      resource: { id: 'p', cards: [{ name: 'A', services: [{ id: 's-1' }, { id: null }] }, { name: 'B' }] },
      refs: [{ kind: 'StatusPageService', id: 's-1' }],
    },
    {
      kind: 'MaintenanceWindow',
      resource: { id: 9, statusPageVisibility: { statusPageIds: ['p-1'], serviceIds: ['s-2'] } },
      refs: [
        { kind: 'StatusPage', id: 'p-1' },
        { kind: 'StatusPageService', id: 's-2' },
      ],
    },
    { kind: 'AlertChannel', resource: { id: 3, type: 'EMAIL' }, refs: [] },
  ] as const)('$kind', ({ kind, resource, refs }) => {
    expect(liveReferences(kind, resource)).toEqual(refs);
  });
});

describe('isCreatedFrom: whether a live resource nobody owns is the one a create made', () => {
  const webhook = {
    type: 'WEBHOOK',
    config: { name: 'hook', url: 'https://example.com/hook', webhookSecret: 'canary-secret' },
  };
  it.each([
    {
      name: 'the same natural key, whatever else differs',
      kind: 'CheckGroup',
      payload: { name: 'G', concurrency: 4 },
      live: { id: 1, name: 'G', concurrency: 3 },
      made: true,
    },
    {
      name: 'another natural key',
      kind: 'CheckGroup',
      payload: { name: 'G' },
      live: { id: 1, name: 'H' },
      made: false,
    },
    {
      name: 'no natural key: the same content',
      kind: 'AlertChannel',
      payload: { type: 'EMAIL', config: { address: 'ops@example.com' } },
      live: { id: 1, type: 'EMAIL', config: { address: 'ops@example.com' }, created_at: 'x' },
      made: true,
    },
    {
      name: 'no natural key: other content',
      kind: 'AlertChannel',
      payload: { type: 'EMAIL', config: { address: 'ops@example.com' } },
      live: { id: 1, type: 'EMAIL', config: { address: 'dev@example.com' } },
      made: false,
    },
    {
      name: 'no natural key: secrets the service masks do not tell it apart',
      kind: 'AlertChannel',
      payload: webhook,
      live: { id: 1, ...webhook, config: { ...webhook.config, webhookSecret: '' } },
      made: true,
    },
  ] as const)('$name: $made', ({ kind, payload, live, made }) => {
    expect(isCreatedFrom(kind, payload, live as unknown as LiveResource)).toBe(made);
  });
});

describe('appliedHash: what state records of the payload last applied', () => {
  const group = (token: string, concurrency = 3) => ({
    name: 'G',
    concurrency,
    environmentVariables: [{ key: 'TOKEN', value: token, secret: true }],
    alertChannelSubscriptions: [{ alertChannelId: { $ref: 'AlertChannel:mail' }, activated: true }],
  });

  it('with a state secret, changes with a secret value', () => {
    const keyed = secretHasher('key', 'salt');
    expect(appliedHash('CheckGroup', group('a'), keyed)).toBe(appliedHash('CheckGroup', group('a'), keyed));
    expect(appliedHash('CheckGroup', group('a'), keyed)).not.toBe(
      appliedHash('CheckGroup', group('b'), keyed),
    );
  });

  it('without one, never depends on a secret value, only on the rest', () => {
    const unkeyed = secretHasher(undefined, 'salt');
    expect(appliedHash('CheckGroup', group('a'), unkeyed)).toBe(
      appliedHash('CheckGroup', group('b'), unkeyed),
    );
    expect(appliedHash('CheckGroup', group('a'), unkeyed)).not.toBe(
      appliedHash('CheckGroup', group('a', 4), unkeyed),
    );
  });
});

describe('resolveRefs', () => {
  it('replaces the references whose physical id is known; the others stay for the deployer', () => {
    const ids = new Map([['AlertChannel:mail', 3]]);
    expect(
      resolveRefs(
        { subs: [{ id: { $ref: 'AlertChannel:mail' } }, { id: { $ref: 'AlertChannel:new' } }] },
        ids,
      ),
    ).toEqual({ subs: [{ id: 3 }, { id: { $ref: 'AlertChannel:new' } }] });
  });
});
