import { describe, expect, it } from 'vitest';
import { atPropLocation, SourceText } from './prop-location.js';

const SOURCE = `import { CheckGroup } from '@monitor/constructs';
const shared = { amount: 2 };
export const payments = new CheckGroup('payments', {
  // a comment with a } and a ,
  name: '',
  locations: ['eu-west-1', "mars-1", \`us-\${'east'}-1\`],
  'tags': ['a,b', '}'],
  apiCheckDefaults: {
    headers: [
      { key: 'A', value: 'x' },
      { key: '', value: 'y' },
    ],
  },
  alertSettings: shared,
  concurrency,
  ...spread,
  muted: true,
});
`;
const AT = { line: 3, column: 25 };

describe('propPosition', () => {
  it.each([
    { path: 'name', at: { line: 5, column: 3 } },
    { path: 'locations', at: { line: 6, column: 3 } },
    { path: 'locations[1]', at: { line: 6, column: 28 } },
    { path: 'locations[2]', at: { line: 6, column: 38 } },
    { path: 'tags[1]', at: { line: 7, column: 19 } },
    { path: 'apiCheckDefaults.headers[1].key', at: { line: 11, column: 9 } },
    { path: 'apiCheckDefaults.headers[1]', at: { line: 11, column: 7 } },
    // Computed: the deepest prop written in the construct.
    { path: 'alertSettings.reminders.amount', at: { line: 14, column: 3 } },
    { path: 'concurrency', at: { line: 15, column: 3 } },
    { path: 'muted', at: { line: 17, column: 3 } },
  ])('$path', ({ path, at }) => {
    expect(new SourceText(SOURCE).propPosition(AT, path)).toEqual(at);
  });

  it('is undefined when the prop is not written in the construct, or the props are not a literal', () => {
    expect(new SourceText(SOURCE).propPosition(AT, 'doubleCheck')).toBeUndefined();
    const computed = "new CheckGroup('g', props);\n";
    expect(new SourceText(computed).propPosition({ line: 1, column: 1 }, 'name')).toBeUndefined();
  });
});

describe('an option, in the third argument', () => {
  const src = [
    "new CheckGroup('g', { name: 'G', protect: true, tags: [f(1, 2)] }, {",
    "  aliases: ['old'],",
    "  ignoreChanges: ['muted', 'mutd'],",
    '});',
  ].join('\n');
  const at = { line: 1, column: 1 };

  it.each([
    { path: 'aliases', in: 'options' as const, found: { line: 2, column: 3 } },
    { path: 'ignoreChanges[1]', in: 'options' as const, found: { line: 3, column: 28 } },
    // An option written among the props, where the diagnostic that it moved points.
    { path: 'protect', in: 'props' as const, found: { line: 1, column: 34 } },
    { path: 'name', in: 'props' as const, found: { line: 1, column: 23 } },
  ])('$path in the $in', ({ path, in: argument, found }) => {
    expect(new SourceText(src).propPosition(at, path, argument)).toEqual(found);
  });

  it('is not found in the other argument, nor where there is no third', () => {
    expect(new SourceText(src).propPosition(at, 'aliases')).toBeUndefined();
    expect(new SourceText(src).propPosition(at, 'name', 'options')).toBeUndefined();
    const twoArguments = "new CheckGroup('g', { name: 'G', aliases: ['x'] });";
    expect(new SourceText(twoArguments).propPosition(at, 'aliases', 'options')).toBeUndefined();
  });

  it('a diagnostic that says pathIn options is placed in the options', () => {
    const location = { file: '/p/a.monitor.ts', ...at };
    const sourceOf = () => new SourceText(src);
    const placed = (path: string, pathIn?: 'options') =>
      atPropLocation({ severity: 'error', path, pathIn, message: '', location }, sourceOf).location;
    expect(placed('ignoreChanges[1]', 'options')).toMatchObject({ line: 3, column: 28 });
    expect(placed('protect')).toMatchObject({ line: 1, column: 34 });
  });
});

describe('propPosition over what the scanner skips', () => {
  const at = { line: 1, column: 1 };
  it.each([
    // Strings with escaped quotes, brackets and commas inside them.
    { src: `new G('g', { a: 'it\\'s, {not} [a] prop', b: 1 });`, path: 'b', column: 42 },
    { src: `new G('g', { a: "say \\"x, y\\"", b: 1 });`, path: 'b', column: 33 },
    // A string that ends in a backslash (escaped): its quote still ends it.
    { src: "new G('g', { a: 'C:\\\\', b: 1 });", path: 'b', column: 25 },
    { src: "new G('g', { a: 'x\\\\\\', }', b: 1 });", path: 'b', column: 29 },
    // A template literal whose substitution holds braces, strings and a nested template.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text holds a template literal
    { src: 'new G(\'g\', { a: `x${ {k: "}"}.k }${`y${1}`}, z`, b: 1 });', path: 'b', column: 50 },
    // A template with a lone $, an escaped backtick and an escaped substitution.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text holds a template literal
    { src: "new G('g', { a: `$5, \\` \\${x}}`, b: 1 });", path: 'b', column: 34 },
    // Lists of plain values, with a trailing comma or not; one with what a list of them cannot hold.
    { src: "new G('g', { a: ['x', \"y\",], n: [1, 2.5, k.v], b: 1 });", path: 'b', column: 48 },
    { src: "new G('g', { a: ['x' 'y'], b: 1 });", path: 'b', column: 28 },
    // A comment after a plain value, holding what would end an entry; one never closed.
    { src: "new G('g', { a: 'x' /* , } */, b: 1 });", path: 'b', column: 32 },
    { src: "new G('g', { a: 1, /* b: 2 });", path: 'b', column: undefined },
    // Block and line comments between entries, holding what would end an entry.
    { src: `new G('g', { a: 1, /* b: 2, } */ b: 3 });`, path: 'b', column: 34 },
    { src: `new G('g', {\n  a: 1, // b: 2, }\n  b: 3,\n});`, path: 'b', column: 3, line: 3 },
    // Whitespace beyond ASCII (no-break space, line separator) and a byte order mark.
    { src: `new G('g', {\u00a0a: 1,\u2028\ufeffb: 2 });`, path: 'b', column: 21 },
    // Quoted keys, with escapes, and keys with $ and _.
    { src: `new G('g', { 'a\\u0062': 1, $x_1: 2 });`, path: 'ab', column: 14 },
    { src: `new G('g', { 'a\\u0062': 1, $x_1: 2 });`, path: '$x_1', column: 28 },
    // A regular division is not a comment, nor the start of a regular expression.
    { src: `new G('g', { a: 4 / 2, b: 1 });`, path: 'b', column: 24 },
    { src: `new G('g', { a: (x) / 2 / y, b: 1 });`, path: 'b', column: 30 },
    // Regular expressions holding what would end an entry: brackets, commas, quotes, slashes.
    { src: String.raw`new G('g', { a: /\)/, b: 1 });`, path: 'b', column: 23 },
    { src: String.raw`new G('g', { a: /[)\]/,"]+/gi, b: 1 });`, path: 'b', column: 32 },
    { src: String.raw`new G('g', { a: s.replace(/\)/g, ''), b: 1 });`, path: 'b', column: 39 },
    { src: String.raw`new G('g', { a: [/\]/, 2], b: 1 });`, path: 'a[1]', column: 24 },
    { src: "new G('g', { a: (x) =>  /,/.test(x), b: 1 });", path: 'b', column: 38 },
  ])('$src → $path', ({ src, path, column, line = 1 }) => {
    expect(new SourceText(src).propPosition(at, path)).toEqual(
      column === undefined ? undefined : { line, column },
    );
  });

  it('gives up, rather than looping, on what it cannot read past', () => {
    // A stray closing bracket where an entry should start (here after a division it takes for a
    // regular expression's start, so the rest of the line is one): no position, and an answer.
    const src = `new G('g', { a: x\n/ 2 ), b: 1 });`;
    expect(new SourceText(src).propPosition(at, 'b')).toBeUndefined();
    expect(new SourceText(`new G('g', { a: 1 ) ] b: 2 });`).propPosition(at, 'b')).toBeUndefined();
    // In a list: the deepest prop it could find, `a`.
    expect(new SourceText(`new G('g', { a: [1 ) ] ] });`).propPosition(at, 'a[2]')).toEqual({
      line: 1,
      column: 14,
    });
  });
});
