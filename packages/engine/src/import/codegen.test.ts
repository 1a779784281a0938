import { describe, expect, it } from 'vitest';
import { literal } from './codegen.js';

/** The string a literal of generated code evaluates to. */
const evaluate = (code: string): string => new Function(`return ${code};`)() as string;

/** What generated code must never hold raw: controls, format (bidi) characters, lone surrogates, odd spaces. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}]/u;

describe('literal', () => {
  it('reads back as the text for every character, on one line and among lines, and holds nothing invisible raw', () => {
    const wrong: string[] = [];
    for (let block = 0; block < 0x10000; block += 0x100) {
      const chars = Array.from({ length: 0x100 }, (_, i) => `a${String.fromCharCode(block + i)}`).join('');
      for (const text of [chars, `${chars}\n${chars}`]) {
        const written = literal(text);
        if (evaluate(written) !== text || INVISIBLE.test(written.replace(/[ \n]/g, '')))
          wrong.push(`block U+${block.toString(16)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps CRLF line ends, quotes, backslashes, template syntax and text in any script', () => {
    const texts = [
      '.a {\r\n  color: red;\r\n}\r\n',
      'line one\nline two\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal "${x}" that generated code must keep as text
      'it\'s "quoted" `back` \\ ${x} $ {y}',
      'Zürich — 東京 👩‍💻',
      'odd \u{e0001}\u{1d173} ones',
      'bidi \u202e reversed \u2066 isolated \u2069 and \u200f',
    ];
    for (const text of texts) expect(evaluate(literal(text))).toBe(text);
    expect(literal('.a {\r\n}')).toBe('`.a {\\r\\n}`');
    expect(literal('a\nb')).toBe('`a\nb`');
    expect(literal("it's")).toBe("'it\\'s'");
    expect(literal('Zürich')).toBe("'Zürich'");
    expect(literal('bidi \u202e')).toBe("'bidi \\u202E'");
    expect(literal('tag \u{e0001}')).toBe("'tag \\u{E0001}'");
  });
});
