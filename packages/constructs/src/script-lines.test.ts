import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lineAndColumn } from './script-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'monitor-script-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module that records where V8 places each of its `cap()` calls: position, line and column. */
const RECORDER = `export const sites = [];
function cap() {
  const holder = {};
  Error.captureStackTrace(holder, cap);
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_e, s) => s;
  const site = holder.stack[0];
  Error.prepareStackTrace = prepare;
  sites.push([site.getPosition(), site.getLineNumber(), site.getColumnNumber()]);
}
`;

/** What V8 says of the `cap()` calls of `body`, the module run by a Node process of its own. */
function placedByV8(name: string, text: string): { file: string; sites: [number, number, number][] } {
  const file = join(dir, name);
  writeFileSync(file, text);
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { sites } = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify(sites));`,
    ],
    { encoding: 'utf8' },
  );
  return { file, sites: JSON.parse(out) };
}

describe('lineAndColumn', () => {
  it('places a position where V8 does, whatever ends the lines', () => {
    const body = [
      'cap();',
      '\r\n  cap();',
      '\rcap(); cap();',
      '\u2028 cap();',
      '\u2029\tcap();',
      '\nconst s = "a\u2028b\u2029c"; cap();',
      '\nconst t = `x\r\ny\rz\n`; cap();',
      '\n/* a\r\nb\n */ cap();',
      `\n${'// a line\n'.repeat(2000)}cap();`,
      '\nfor (let i = 0; i < 3; i++) cap();\n',
    ].join('');
    // Lines that all end in \n (what esbuild writes) are found another way than the others.
    const newlinesOnly = body.replace('"a\u2028b\u2029c"', '"abc"').replace(/\r\n|[\r\u2028\u2029]/g, '\n');
    for (const [name, text] of [
      ['lines.mjs', RECORDER + body],
      ['with-bom.mjs', `\ufeff${RECORDER}${body}`],
      ['newlines.mjs', RECORDER + newlinesOnly],
      ['newlines-with-bom.mjs', `\ufeff${RECORDER}${newlinesOnly}`],
    ] as const) {
      const { file, sites } = placedByV8(name, text);
      expect(sites.length).toBe(13);
      // V8 is asked about the first position only: the others come from the text.
      let asked = 0;
      for (const [position, line, column] of sites) {
        const v8 = () => {
          asked++;
          return { line, column };
        };
        expect(lineAndColumn(file, position, v8), `position ${position}`).toEqual({ line, column });
      }
      expect(asked).toBe(1);
    }
  });

  it('places nothing it cannot read, nor a position past the end of the text', () => {
    const unused = () => ({ line: 0, column: 0 });
    expect(lineAndColumn(join(dir, 'missing.mjs'), 0, unused)).toBeUndefined();
    const file = join(dir, 'short.mjs');
    writeFileSync(file, 'a\nb');
    expect(lineAndColumn(file, 2, () => ({ line: 2, column: 1 }))).toEqual({ line: 2, column: 1 });
    expect(lineAndColumn(file, 3, unused)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn(file, 4, unused)).toBeUndefined();
  });

  it('leaves a file to V8 when its text is no longer what V8 ran (rebuilt since)', () => {
    const { file, sites } = placedByV8('rebuilt.mjs', `${RECORDER}cap();\ncap();\n`);
    // A line added at the top once it ran: the text no longer agrees with where V8 put the calls.
    writeFileSync(file, `// a new first line\n${RECORDER}cap();\ncap();\n`);
    const first = sites[0] as [number, number, number];
    const second = sites[1] as [number, number, number];
    expect(lineAndColumn(file, first[0], () => ({ line: first[1], column: first[2] }))).toBeUndefined();
    expect(lineAndColumn(file, second[0], () => ({ line: second[1], column: second[2] }))).toBeUndefined();
  });
});
