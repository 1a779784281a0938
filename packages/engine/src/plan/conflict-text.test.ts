import { describe, expect, it } from 'vitest';
import { describeConflict } from './conflict-text.js';
import type { Conflict } from './types.js';

const conflict = (c: Partial<Conflict>): Conflict => ({
  reason: 'exists',
  kind: 'CheckGroup',
  logicalId: 'checkout-eu',
  construct: 'CheckGroup',
  field: 'name',
  value: 'Checkout',
  live: { id: 7, name: 'Checkout' },
  ...c,
});

describe('the ways out of a conflict', () => {
  it('write the option where options go: the third argument of new', () => {
    expect(describeConflict(conflict({})).hint).toContain(
      "add `adopt: true` to its options, new's third argument: new CheckGroup('checkout-eu', { … }, { adopt: true })",
    );
    expect(describeConflict(conflict({ reason: 'rename', holder: 'checkout' })).hint).toContain(
      "add `aliases: ['checkout']` to the construct's options, new's third argument: new CheckGroup('checkout-eu', { … }, { aliases: ['checkout'] })",
    );
  });
});
