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

  it('escapes in every piece, so that the pieces are the text of the whole', () => {
    const items = Array.from({ length: 3_000 }, (_, i) => ({ i, name: `\u202e${'x'.repeat(i % 50)}\u009b` }));
    const chunks = [...asciiSafeJsonChunks({ items })];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(asciiSafeJson({ items }));
    expect(chunks.join('')).not.toMatch(/[\u202e\u009b]/);
    expect(JSON.parse(chunks.join(''))).toEqual({ items });
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
