import { describe, expect, it } from 'vitest';
import { EXIT } from './exit-codes.js';
import { writeInPieces, writeInPiecesDrained } from './io.js';
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

  it('prints the envelope, and keeps the exit code', async () => {
    const { io: sink, written } = io();
    const out = new Output('deploy', true);
    out.result = { items: [1, 2] };
    expect(await out.print(sink, EXIT.ok)).toBe(EXIT.ok);
    expect(JSON.parse(written.out)).toMatchObject({ command: 'deploy', ok: true, result: { items: [1, 2] } });
    expect(written.err).toBe('');
  });

  it('says on stderr when a part of the envelope cannot be made, and fails the run', async () => {
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
    expect(await out.print(sink, EXIT.ok)).toBe(EXIT.error);
    expect(written.out).toContain('"command": "deploy"');
    expect(written.err).toBe('\nerror: the --json output stopped part way: cannot redact \\x1b[2J\n');
    // A run that failed already keeps its own code.
    expect(await new Output('deploy', true).print(io().io, EXIT.invalid)).toBe(EXIT.invalid);
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

describe('writeInPiecesDrained', () => {
  it('makes and writes the next run only once stdout has taken the one before', async () => {
    const writes: string[] = [];
    let made = 0;
    const waits: (() => void)[] = [];
    const io = {
      stdout: (text: string) => {
        writes.push(text);
      },
      stderr: () => {},
      color: false,
      interactive: false,
      cwd: '/',
      env: {},
      drained: () => new Promise<void>((resolve) => waits.push(resolve)),
    };
    function* pieces() {
      for (let i = 0; i < 3_000; i++) {
        made++;
        yield `${'z'.repeat(99)}\n`;
      }
    }
    const done = writeInPiecesDrained(io, pieces());
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    // Made up to the first run: no further.
    expect(made).toBe(Math.ceil(65_536 / 100));
    while (writes.length < 5) {
      waits.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const resolve of waits.splice(0)) resolve();
    // The rest drains as stdout takes it.
    const drain = setInterval(() => {
      for (const resolve of waits.splice(0)) resolve();
    }, 1);
    await done;
    clearInterval(drain);
    expect(writes.join('')).toBe(`${'z'.repeat(99)}\n`.repeat(3_000));
  });

  it('writes what came before a piece that cannot be made, then fails', async () => {
    const writes: string[] = [];
    const io = {
      stdout: (t: string) => writes.push(t),
      stderr: () => {},
      color: false,
      interactive: false,
      cwd: '/',
      env: {},
    };
    function* pieces() {
      yield 'first ';
      throw new Error('cannot');
    }
    await expect(writeInPiecesDrained(io, pieces())).rejects.toThrow('cannot');
    expect(writes).toEqual(['first ']);
  });
});
