import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeInPieces } from './io.js';
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
    // Values JSON.stringify treats apart: left out, written as null, or replaced by their toJSON
    // (which is given the member's key or index).
    const special = fc.constantFrom<unknown>(
      undefined,
      () => 1,
      Symbol('s'),
      { toJSON: () => undefined },
      { toJSON: (key: string) => `key ${key}` },
      { toJSON: () => ({ nested: [1, undefined, { toJSON: (key: string) => key }] }) },
      new Date(0),
      Object.assign(Object.create(null) as object, { bare: true }),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.jsonValue({ maxDepth: 1 }),
        special,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
      ),
    }));
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 5 }), (v, depth) => {
        const text = [...asciiSafeJsonChunks(v, depth)].join('');
        expect(text).toBe(JSON.stringify(v, null, 2) ?? 'null');
      }),
      { numRuns: 500 },
    );
  });

  it('writes a date as JSON.stringify does, and a large array in pieces of about 64 KB', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i, text: 'x'.repeat(i % 300) }));
    const value = { at: new Date(0), items, large: [{ text: 'y'.repeat(500_000) }, 1, 2] };
    const chunks = [...asciiSafeJsonChunks(value)];
    expect(chunks.join('')).toBe(JSON.stringify(value, null, 2));
    const text = chunks.join('').length;
    expect(chunks.length).toBeGreaterThan(text / 200_000);
    // None over 64 KB and an item, but the one with the item that is larger by itself.
    expect(chunks.filter((c) => c.length > 65_536 + 400)).toHaveLength(1);
  });
});

describe('asciiSafeJsonChunks, on a value it cannot write', () => {
  it('gives the pieces before it, then throws', () => {
    const value = { items: [{ a: 1 }, { b: 2 }, { big: 10n }, { c: 3 }] };
    const pieces: string[] = [];
    expect(() => {
      for (const piece of asciiSafeJsonChunks(value)) pieces.push(piece);
    }).toThrow(/BigInt/);
    expect(pieces.join('')).toBe('{\n  "items": [\n    {\n      "a": 1\n    },\n    {\n      "b": 2\n    }');
  });
});

describe('writeInPieces', () => {
  it('writes the pieces whole and in order, in writes of at least 64 KB but the last, none empty', () => {
    const pieces = Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 97)}\n`);
    const writes: string[] = [];
    writeInPieces((text) => writes.push(text), pieces);
    expect(writes.join('')).toBe(pieces.join(''));
    expect(writes.length).toBeGreaterThan(1);
    for (const w of writes.slice(0, -1)) expect(w.length).toBeGreaterThanOrEqual(65_536);
    expect(writes.every((w) => w !== '')).toBe(true);
  });

  it('writes nothing for no pieces', () => {
    const writes: string[] = [];
    writeInPieces((text) => writes.push(text), []);
    expect(writes).toEqual([]);
  });
});
