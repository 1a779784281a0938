import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiSafeJson, asciiSafeJsonChunks } from './output.js';

describe('asciiSafeJson', () => {
  it('writes what a terminal acts on as \\u escapes, and reads back as the same data', () => {
    const value = { name: 'a\u001b[2J\u009b31m\u007f\u202eevil\u200b\u2028\u{e0041} 👩‍💻 café' };
    const json = asciiSafeJson(value);
    expect(json).not.toMatch(/[\p{Cc}\p{Cf}\u2028](?<!\n)/u);
    expect(json).toContain('a\\u001b[2J\\u009b31m\\u007f\\u202eevil\\u200b\\u2028\\udb40\\udc41');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('is, in pieces, the text of JSON.stringify(value, null, 2) at every depth', () => {
    const plain = fc.string({ unit: 'grapheme-ascii' });
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.integer({ min: 0, max: 5 }),
        fc.dictionary(plain, fc.oneof(fc.constant(undefined), fc.func(fc.nat()), fc.jsonValue())),
        (value, depth, withOmitted) => {
          for (const v of [
            value,
            withOmitted,
            [withOmitted, undefined, [value]],
            { a: { toJSON: () => 1 } },
          ]) {
            const text = [...asciiSafeJsonChunks(v, depth)].join('');
            expect(text).toBe(JSON.stringify(v, null, 2));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes a date as JSON.stringify does, and a large array in many pieces', () => {
    const value = { at: new Date(0), items: Array.from({ length: 1000 }, (_, i) => ({ i })) };
    const chunks = [...asciiSafeJsonChunks(value)];
    expect(chunks.join('')).toBe(JSON.stringify(value, null, 2));
    expect(chunks.length).toBeGreaterThan(1000);
  });
});
