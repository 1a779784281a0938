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
