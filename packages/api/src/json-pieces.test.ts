import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonWhenWritten, jsonPieces } from './json-pieces.js';

describe('jsonPieces', () => {
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
      // A toJSON whose result has one of its own: JSON.stringify calls only the first.
      { toJSON: () => new Date(0) },
      { toJSON: () => [{ toJSON: () => new Date(0) }] },
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
        const text = [...jsonPieces(v, { depth })].join('');
        expect(text).toBe(JSON.stringify(v, null, 2) ?? 'null');
      }),
      { numRuns: 500 },
    );
  });

  it('writes a date as JSON.stringify does, and a large array in pieces of about 64 KB', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i, text: 'x'.repeat(i % 300) }));
    const value = { at: new Date(0), items, large: [{ text: 'y'.repeat(500_000) }, 1, 2] };
    const chunks = [...jsonPieces(value)];
    expect(chunks.join('')).toBe(JSON.stringify(value, null, 2));
    const text = chunks.join('').length;
    expect(chunks.length).toBeGreaterThan(text / 200_000);
    // None over 64 KB and an item, but the one with the item that is larger by itself.
    expect(chunks.filter((c) => c.length > 65_536 + 400)).toHaveLength(1);
  });

  it('gives out an array below the depth it walks in pieces too', () => {
    const changes = Array.from({ length: 5_000 }, (_, i) => ({ group: `g-${i}`, text: 'x'.repeat(i % 300) }));
    const value = { routing: { changes } };
    const chunks = [...jsonPieces(value, { depth: 2 })];
    expect(chunks.join('')).toBe(JSON.stringify(value, null, 2));
    // `changes` is a member at the depth where objects are stringified whole: 1 MB in one piece before.
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(65_536 + 400);
  });

  it("calls an item's toJSON only when its run is made, and keeps none of their results", () => {
    let made = 0;
    const items = Array.from({ length: 2_000 }, (_, i) => ({
      toJSON: () => {
        made++;
        return { i, text: 'z'.repeat(200) };
      },
    }));
    const pieces = jsonPieces({ items });
    expect(made).toBe(0);
    const first = pieces.next();
    expect(first.done).toBe(false);
    // The key of the first member comes before any item is made.
    expect(first.value).toBe('{\n  "items": ');
    pieces.next();
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(items.length);
    const rest = [...pieces];
    expect(made).toBe(items.length);
    expect(rest.length).toBeGreaterThan(1);
  });

  it('calls each toJSON once, with its key, as JSON.stringify does', () => {
    const calls: string[] = [];
    const counted = (tag: string) => ({
      toJSON: (key: string) => {
        calls.push(`${tag}:${key}`);
        return tag === 'date' ? new Date(0) : { tag };
      },
    });
    const value = { a: counted('a'), list: [counted('b'), counted('date')], date: counted('date') };
    for (const depth of [0, 1, 2, 3]) {
      calls.length = 0;
      const text = [...jsonPieces(value, { depth })].join('');
      const seen = [...calls];
      calls.length = 0;
      expect(text).toBe(JSON.stringify(value, null, 2));
      expect(seen.sort()).toEqual([...calls].sort());
    }
  });

  it("reads an array's length once, as JSON.stringify does, and writes its holes as null", () => {
    const grown = () => {
      const list: unknown[] = [1, undefined, 3];
      delete list[1];
      list.push({ toJSON: () => list.push('added') && 'pushed' });
      return { list };
    };
    expect([...jsonPieces(grown(), { depth: 1 })].join('')).toBe(JSON.stringify(grown(), null, 2));
  });

  it('escapes each piece with the given escapeText, keys too', () => {
    const value = { 'k\u00e9y': ['caf\u00e9', { deep: '\u00e9' }] };
    const escapeText = (json: string) => json.replaceAll('\u00e9', '\\u00e9');
    const text = [...jsonPieces(value, { depth: 1, escapeText })].join('');
    expect(text).toBe(JSON.stringify(value, null, 2).replaceAll('\u00e9', '\\u00e9'));
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('jsonPieces, on a value it cannot write', () => {
  it('gives the pieces before it, then throws', () => {
    const value = { items: [{ a: 1 }, { b: 2 }, { big: 10n }, { c: 3 }] };
    const pieces: string[] = [];
    expect(() => {
      for (const piece of jsonPieces(value)) pieces.push(piece);
    }).toThrow(/BigInt/);
    expect(pieces.join('')).toBe('{\n  "items": [\n    {\n      "a": 1\n    },\n    {\n      "b": 2\n    }');
  });
});

describe('JsonWhenWritten', () => {
  it('makes its JSON only as it is written, each time, and writes as that JSON', () => {
    const made: number[] = [];
    const toJson = (v: number) => {
      made.push(v);
      return { n: v };
    };
    const items = [1, 2].map((n) => new JsonWhenWritten(n, toJson));
    expect(made).toEqual([]);
    const text = [...jsonPieces({ items }, { depth: 1 })].join('');
    expect(text).toBe(JSON.stringify({ items: [{ n: 1 }, { n: 2 }] }, null, 2));
    expect(JSON.stringify(items)).toBe('[{"n":1},{"n":2}]');
    expect(made).toEqual([1, 2, 1, 2]);
  });
});
