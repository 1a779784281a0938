import { describe, expect, it } from 'vitest';
import { paint } from './io.js';
import { painted, renderFields, renderTable } from './tables.js';

/** What a terminal acts on: a control character (C0 but the line break, DEL, C1) or a format character (bidi, zero-width). */
const TERMINAL_CONTROL = /(?!\n)[\p{Cc}\p{Cf}]/u;

/** A check renamed in the account to clear the screen, hide a link, ring, overwrite its line and reverse. */
const HOSTILE =
  'Payments\u001b[2J\u001b[H\u001b]8;;https://evil.example\u0007docs\u001b]8;;\u0007\u0007\rOK\u009b31m\u202eevil';
const SHOWN =
  'Payments\\x1b[2J\\x1b[H\\x1b]8;;https://evil.example\\x07docs\\x1b]8;;\\x07\\x07\\rOK\\x9b31m\\u202eevil';

describe('renderTable', () => {
  const rows = [{ name: HOSTILE, status: 'FAILED' }];

  it('shows control characters from the account as escapes, in cells and headers', () => {
    const out = renderTable(
      rows,
      [
        { header: 'NAME', value: (r) => r.name },
        { header: `LABEL\u001b[5m`, value: (r) => r.status },
      ],
      { columns: undefined },
      paint(false),
    );
    expect(out).not.toMatch(TERMINAL_CONTROL);
    expect(out).toContain(SHOWN);
    expect(out.split('\n')[0]).toBe(`NAME${' '.repeat(SHOWN.length - 2)}LABEL\\x1b[5m`);
  });

  it('cuts escaped text to the terminal, and paints a painted column after cutting', () => {
    const p = paint(true);
    const out = renderTable(
      rows,
      [
        { header: 'RESULT', value: (r) => painted(p.red(r.status.toLowerCase())) },
        { header: 'NAME', value: (r) => r.name, shrink: true },
      ],
      { columns: 30 },
      p,
    );
    const body = out.split('\n')[1] ?? '';
    expect(body).toBe(`${p.red('failed')}  Payments\\x1b[2J\\x1b[H…`);
    expect(body.replace(p.red('failed'), '')).not.toMatch(TERMINAL_CONTROL);
  });

  it('puts a multi-line value on one line', () => {
    const out = renderTable(
      [{ m: 'one\r\ntwo\n  three' }],
      [{ header: 'M', value: (r) => r.m }],
      {},
      paint(false),
    );
    expect(out).toBe('M\none two three\n');
  });
});

describe('renderFields', () => {
  it('shows control characters as escapes, and a multi-line value under its first line', () => {
    const out = renderFields(
      [
        ['name', HOSTILE],
        ['raw message', 'Error: boom\r\n    at step (\u001b[31mtest.ts:1\u001b[39m)\n'],
        ['skipped', undefined],
      ],
      paint(false),
    );
    expect(out).not.toMatch(TERMINAL_CONTROL);
    expect(out).toBe(
      `name:        ${SHOWN}\nraw message: Error: boom\n                 at step (\\x1b[31mtest.ts:1\\x1b[39m)\n`,
    );
  });

  it('prints a painted value as it is', () => {
    const p = paint(true);
    expect(renderFields([['status', painted(p.green('COMPLETED'))]], p)).toBe(
      `${p.dim('status:')} ${p.green('COMPLETED')}\n`,
    );
  });
});
