import { describe, expect, it } from 'vitest';
import { EXIT } from './exit-codes.js';
import { writeInPieces } from './io.js';
import { asciiSafeJson, asciiSafeJsonChunks, Output } from './output.js';

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

describe('Output.print', () => {
  const io = () => {
    const written = { out: '', err: '' };
    return {
      written,
      io: {
        stdout: (t: string) => {
          written.out += t;
        },
        stderr: (t: string) => {
          written.err += t;
        },
        color: false,
        interactive: false,
        cwd: '/',
        env: {},
      },
    };
  };

  it('prints the envelope, and keeps the exit code', () => {
    const { io: sink, written } = io();
    const out = new Output('deploy', true);
    out.result = { items: [1, 2] };
    expect(out.print(sink, EXIT.ok)).toBe(EXIT.ok);
    expect(JSON.parse(written.out)).toMatchObject({ command: 'deploy', ok: true, result: { items: [1, 2] } });
    expect(written.err).toBe('');
  });

  it('says on stderr when a part of the envelope cannot be made, and fails the run', () => {
    const { io: sink, written } = io();
    const out = new Output('deploy', true);
    out.result = {
      results: [
        { ok: 1 },
        {
          toJSON: () => {
            throw new Error('cannot redact \u001b[2J');
          },
        },
      ],
    };
    expect(out.print(sink, EXIT.ok)).toBe(EXIT.error);
    expect(written.out).toContain('"command": "deploy"');
    expect(written.err).toBe('\nerror: the --json output stopped part way: cannot redact \\x1b[2J\n');
    // A run that failed already keeps its own code.
    expect(new Output('deploy', true).print(io().io, EXIT.invalid)).toBe(EXIT.invalid);
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
