import { describe, expect, it } from 'vitest';
import { firstSeenSince } from './error-groups.js';

describe('firstSeenSince', () => {
  it('compares date-times as instants, and a date alone by its day', () => {
    const since = '2026-11-24T09:00:00.000Z';
    expect(firstSeenSince('2026-11-24T09:00:00.001Z', since)).toBe(true);
    expect(firstSeenSince('2026-11-24T08:59:59.999Z', since)).toBe(false);
    expect(firstSeenSince('2026-11-24T10:00:00+02:00', since)).toBe(false);
    expect(firstSeenSince('2026-11-24', since)).toBe(true);
    expect(firstSeenSince('2026-11-23', since)).toBe(false);
  });
});
