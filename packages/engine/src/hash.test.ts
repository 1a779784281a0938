import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashJson } from './hash.js';

// What canonicalJson has always meant, and what state files hold hashes of: JSON.stringify of a
// copy with every object's keys sorted. The direct writer must give the same text for any value.
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, sortedCopy((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
const reference = (value: unknown) => JSON.stringify(sortedCopy(value));
const referenceHash = (value: unknown) =>
  createHash('sha256').update(reference(value)).digest('hex').slice(0, 32);

const keys = fc.oneof(
  fc.constantFrom('a', 'b', 'name', 'Name', 'é', '__proto__', 'toJSON', '0', '10', '9', '01', '1a', '-1', ''),
  fc.string(),
);
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(() => 1),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.sparseArray(tie('value'), { maxLength: 5 }),
    fc.dictionary(keys, tie('value'), { maxKeys: 6 }),
    fc.date({ noInvalidDate: true }),
  ),
})).value;

describe('canonicalJson', () => {
  it('writes what JSON.stringify of a sorted copy writes, for any value', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['sorted keys at every level', { b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }],
    ['index-like keys first, in numeric order', { b: 1, 10: 'x', 9: 'y', a: 2 }],
    ['an own toJSON method is called, as a copy would call it', { toJSON: () => 'replaced', a: 1 }],
    ['a toJSON key that is not a method', { toJSON: 'plain', a: 1 }],
    ['an own __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "a": 2}')],
    ['no toJSON of a Date: its own keys, none', { at: new Date(0) }],
    ['non-finite numbers and -0', { a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0 }],
    // biome-ignore lint/suspicious/noSparseArray: a hole
    ['holes and undefined in arrays as null', [1, , undefined, () => 1]],
    ['undefined and functions left out of objects', { a: undefined, b: () => 1, c: Symbol('s') }],
    ['strings that need escaping', { 'quo"te': 'line\nbreak \u2028 \ud800' }],
    [
      'a class instance as its own keys',
      new (class Point {
        constructor(
          readonly y = 2,
          readonly x = 1,
        ) {}
      })(),
    ],
    [
      'an array of a class of its own, whose toJSON the copy has',
      {
        list: new (class Listed extends Array<number> {
          toJSON() {
            return 'listed';
          }
        })(),
      },
    ],
  ])('%s', (_name, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('calls a toJSON every object inherits, as JSON.stringify of the copy does', () => {
    const prototype = Object.prototype as { toJSON?: () => string };
    prototype.toJSON = () => 'inherited';
    try {
      expect(canonicalJson({ b: { c: 1 }, a: [1] })).toBe(reference({ b: { c: 1 }, a: [1] }));
      expect(canonicalJson({ a: 1 })).toBe('"inherited"');
    } finally {
      delete prototype.toJSON;
    }
  });

  it('gives nothing for undefined, as JSON.stringify does', () => {
    expect(canonicalJson(undefined)).toBeUndefined();
  });

  it('throws for a BigInt, as JSON.stringify does', () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });
});

describe('hashJson', () => {
  it('is the first 32 hex digits of the SHA-256 of the canonical JSON, as state records it', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        if (reference(value) === undefined) return;
        expect(hashJson(value)).toBe(referenceHash(value));
      }),
      { numRuns: 500 },
    );
    // sha256('{"a":[true,"x"],"b":1}'): a state written before this test still reads the same.
    expect(hashJson({ b: 1, a: [true, 'x'] })).toBe('f15ef113d6e0c876b9ea9e90ebc36ad3');
  });
});
