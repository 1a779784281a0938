import type { DesiredResource } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { InvalidPlanError } from '../errors.js';
import type { State } from '../state/state.js';
import { construct, entry, liveOf, stateOf } from '../test-support/planning.js';
import { plan } from './plan.js';
import { checkSavedPlan, parseSavedPlan, type SavedPlan, savePlan } from './saved-plan.js';
import type { Live } from './types.js';

/**
 * A saved plan (`monitor diff --out`) is applied later (`monitor deploy --plan`) only while it still
 * holds: same account and state serial, and every operation still the one the fresh plan makes,
 * over the same live resource and the same code.
 */

const NOW = { now: new Date('2026-11-21T00:00:00Z') };
const CONTEXT = { accountId: 'acct', projectName: 'shop' };

/** An update (g), a create (new) and a delete (old). */
function account(): { code: DesiredResource[]; live: Live; state: State } {
  return {
    code: [
      construct('CheckGroup', 'g', { name: 'G', concurrency: 4 }),
      construct('CheckGroup', 'new', { name: 'New' }),
    ],
    live: liveOf({
      CheckGroup: [
        { id: 1, name: 'G', concurrency: 3 },
        { id: 2, name: 'Old' },
      ],
    }),
    state: stateOf([entry('CheckGroup', 'g', 1), entry('CheckGroup', 'old', 2)]),
  };
}

function saved(): SavedPlan {
  const { code, live, state } = account();
  return savePlan(plan(code, live, state, NOW), live, CONTEXT);
}

describe('savePlan', () => {
  it('records the live resource each operation touches, and the code of each create and update', () => {
    const { code, live, state } = account();
    const made = plan(code, live, state, NOW);
    expect(made.operations.map((op) => [op.action, op.logicalId])).toEqual([
      ['update', 'g'],
      ['create', 'new'],
      ['delete', 'old'],
    ]);
    const s = savePlan(made, live, CONTEXT);
    expect(s).toMatchObject({ kind: 'monitor-plan', accountId: 'acct', projectName: 'shop', stateSerial: 0 });
    expect(s.createdAt).toBe('2026-11-21T00:00:00.000Z');
    // A create touches nothing live yet.
    expect(s.fingerprints['CheckGroup:new']).toBeNull();
    expect(s.fingerprints['CheckGroup:g']).toEqual(expect.any(String));
    expect(s.fingerprints['CheckGroup:old']).toEqual(expect.any(String));
    expect(s.fingerprints['CheckGroup:g']).not.toBe(s.fingerprints['CheckGroup:old']);
    const hashes = Object.fromEntries(
      made.operations.flatMap((op) =>
        op.action === 'delete' ? [] : [[`CheckGroup:${op.logicalId}`, op.desiredHash]],
      ),
    );
    expect(s.desiredHashes).toEqual(hashes);
    expect(s.plan.operations.map((op) => op.logicalId)).toEqual(['g', 'new', 'old']);
  });

  it('survives the trip through a file', () => {
    const s = saved();
    expect(parseSavedPlan(JSON.stringify(s), 'plan.json')).toEqual(JSON.parse(JSON.stringify(s)));
  });
});

describe('parseSavedPlan', () => {
  const valid = JSON.parse(JSON.stringify(saved())) as Record<string, unknown>;

  it.each([
    { name: 'not JSON', text: '{"kind":', why: /^plan\.json is not JSON: / },
    {
      name: 'another JSON document',
      text: '{"name":"shop"}',
      why: /^plan\.json is not a saved monitor plan: ./,
    },
    {
      name: 'another kind of file',
      text: JSON.stringify({ ...valid, kind: 'monitor-state' }),
      why: /^plan\.json is not a saved monitor plan/,
    },
    {
      name: 'a plan without operations',
      text: JSON.stringify({ ...valid, plan: {} }),
      why: /^plan\.json is not a saved monitor plan/,
    },
    {
      name: 'an operation without a logical id',
      text: JSON.stringify({ ...valid, plan: { operations: [{ action: 'create', kind: 'CheckGroup' }] } }),
      why: /^plan\.json is not a saved monitor plan/,
    },
  ])('refuses $name, naming the file and how to make one', ({ text, why }) => {
    let error: unknown;
    try {
      parseSavedPlan(text, 'plan.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidPlanError);
    expect((error as InvalidPlanError).message).toMatch(why);
    expect((error as InvalidPlanError).hint).toMatch(/monitor diff --out/);
  });
});

describe('checkSavedPlan', () => {
  it('holds when nothing moved: the fresh plan, with exactly the saved operations', () => {
    const { code, live, state } = account();
    const fresh = plan(code, live, state, NOW);
    const checked = checkSavedPlan(saved(), fresh, live);
    expect(checked.stale).toEqual([]);
    expect(checked.plan.operations).toEqual(fresh.operations);
    expect(checked.plan.summary).toEqual(fresh.summary);
  });

  it.each([
    {
      name: 'another account',
      change: (a: ReturnType<typeof account>) => {
        a.state.accountId = 'elsewhere';
      },
      stale: [/account acct, not elsewhere/],
      left: ['g', 'new', 'old'],
    },
    {
      name: 'another deploy ran (the state serial moved)',
      change: (a: ReturnType<typeof account>) => {
        a.state.serial = 5;
      },
      stale: [/serial 0 → 5/],
      left: ['g', 'new', 'old'],
    },
    {
      name: 'an operation that is no longer needed',
      change: (a: ReturnType<typeof account>) => {
        (a.live.CheckGroup[0] as Record<string, unknown>).concurrency = 4;
      },
      stale: [/^CheckGroup:g: .*update.*no change/],
      left: ['new', 'old'],
    },
    {
      name: 'an operation that became another',
      change: (a: ReturnType<typeof account>) => {
        a.code.shift();
      },
      stale: [/^CheckGroup:g: .*update.*delete/],
      left: ['new', 'old'],
    },
    {
      name: 'a live resource that changed, though the operation is the same',
      change: (a: ReturnType<typeof account>) => {
        (a.live.CheckGroup[1] as Record<string, unknown>).muted = true;
      },
      stale: [/^CheckGroup:old: .*live resource changed/],
      left: ['g', 'new'],
    },
    {
      name: 'code that changed, though the operation is the same',
      change: (a: ReturnType<typeof account>) => {
        (a.code[1] as DesiredResource).payload.concurrency = 9;
      },
      stale: [/^CheckGroup:new: .*code changed/],
      left: ['g', 'old'],
    },
  ])('is stale after $name, and keeps only the operations that still hold', ({ change, stale, left }) => {
    const s = saved();
    const a = account();
    change(a);
    const fresh = plan(a.code, a.live, a.state, NOW);
    const checked = checkSavedPlan(s, fresh, a.live);
    expect(checked.stale).toEqual(stale.map((re) => expect.stringMatching(re)));
    expect(checked.plan.operations.map((op) => op.logicalId)).toEqual(left);
    expect(checked.plan.summary.create + checked.plan.summary.update + checked.plan.summary.delete).toBe(
      left.length,
    );
  });

  it('never runs an operation the fresh plan makes but the saved plan did not', () => {
    const s = saved();
    const a = account();
    a.code.push(construct('CheckGroup', 'later', { name: 'Later' }));
    const checked = checkSavedPlan(s, plan(a.code, a.live, a.state, NOW), a.live);
    expect(checked.stale).toEqual([]);
    expect(checked.plan.operations.map((op) => op.logicalId)).toEqual(['g', 'new', 'old']);
    expect(checked.plan.summary.create).toBe(1);
  });
});
