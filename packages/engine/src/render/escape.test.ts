import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, escapeTerminal, markdownCode, markdownFence, markdownLink } from './escape.js';

const ZWJ = '\u200d';
const toHtml = (md: string) =>
  micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
/** The text a reader sees in the HTML: tags dropped, character references decoded. */
const seen = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();

/** The elements of some HTML, in order. */
const tags = (html: string) => html.match(/<\/?[a-z][a-z0-9]*/g) ?? [];

describe('escapeTerminal', () => {
  it('shows every control character as its escape: ESC, BEL, CR, C1, DEL, bidi overrides, zero-width', () => {
    expect(escapeTerminal('a\u001b[2Jb')).toBe('a\\x1b[2Jb');
    expect(escapeTerminal('\u001b]8;;https://evil\u0007x\u001b]8;;\u0007')).toBe(
      '\\x1b]8;;https://evil\\x07x\\x1b]8;;\\x07',
    );
    expect(escapeTerminal('a\rb\nc\td')).toBe('a\\rb\\nc\\td');
    expect(escapeTerminal('\u009b31m\u0085\u007f')).toBe('\\x9b31m\\x85\\x7f');
    expect(escapeTerminal('abc\u202edcb\u2066\u200b\ufeff\u2028')).toBe(
      'abc\\u202edcb\\u2066\\u200b\\ufeff\\u2028',
    );
    expect(escapeTerminal('tag\u{e0041}')).toBe('tag\\u{e0041}');
  });

  it('keeps line breaks and tabs of a multi-line value, never a lone CR', () => {
    expect(escapeTerminal('one\r\ntwo\n\tthree\rover', { multiline: true })).toBe('one\ntwo\n\tthree\\rover');
  });

  it('leaves ordinary text, emoji sequences included, as it is, and is idempotent', () => {
    const text = 'Zahlungen – API ✓ 👩‍💻 café \\x1b';
    expect(escapeTerminal(text)).toBe(text);
    expect(escapeTerminal(escapeTerminal('\u001b[31m'))).toBe('\\x1b[31m');
  });
});

describe('escapeMarkdown', () => {
  const hostile = [
    '[Approve here](https://evil.example/x) @acme/admins #1',
    '![img](https://evil.example/i.png) <https://evil.example> https://evil.example www.evil.example a@b.example',
    '<img src=x onerror=alert(1)> <details><summary>x</summary>',
    '**bold** __bold__ *em* _em_ ~~strike~~ ~one~ `code` ``two``',
    '&lt; &amp; &#60; &copy;',
    '| a | b |',
    '# heading',
    '- item',
    '+ item',
    '1. item',
    '2) item',
    '> quote',
    '    indented',
    '[^1] [x]: https://evil.example',
    '$x^2$ :smile: GH-7 acme/web#3',
    '\\*not em\\* \\',
  ];

  it('renders each hostile string as its literal text, alone and after a list marker, in a table cell and in HTML', () => {
    for (const s of hostile) {
      const e = escapeMarkdown(s);
      for (const md of [e, `- ${e}`, `> ${e}`, `| h |\n| --- |\n| ${e} |`]) {
        const html = toHtml(md);
        expect(html, md).not.toMatch(/<(a|img|em|strong|del|code|h\d|pre|sup|input|details|summary)\b/);
        expect(tags(html)).toEqual(tags(toHtml(md.replace(e, 'x'))));
        expect(seen(html).replaceAll(ZWJ, ''), md).toContain(s.trim());
      }
      const inHtml = toHtml(`<details>\n<summary>${e}</summary>\n\n</details>`);
      expect(inHtml.match(/<[a-z]/g)).toHaveLength(2);
      expect(seen(inHtml).replaceAll(ZWJ, '')).toBe(s.trim());
    }
  });

  it('puts a zero-width joiner where GitHub would make a mention, an issue reference or a link', () => {
    const text = '@acme/admins #1 https://x.example www.x.example GH-2 :smile:';
    const shown = seen(toHtml(escapeMarkdown(text)));
    expect(shown).not.toMatch(/@\w|#\d|:\/\/|www\.|GH-\d|:smile/);
    expect(shown.replaceAll(ZWJ, '')).toBe(text);
  });

  it('keeps text on its line: control characters, line breaks included, are shown as escapes', () => {
    expect(escapeMarkdown('a\nb\u001b[2J')).toBe('a&#92;nb&#92;x1b&#91;2J');
    expect(escapeMarkdown('x\u200d@y')).toBe(`x&#92;u200d@${ZWJ}y`);
    expect(toHtml(escapeMarkdown('a\n\n# b\r\n[c](d)'))).toBe(`<p>a\\n\\n#${ZWJ} b\\r\\n[c](d)</p>`);
  });

  it('leaves plain names alone, underscores inside words too', () => {
    expect(escapeMarkdown('payments_api Checkout (EU) 3.5 – ok!')).toBe(
      'payments_api Checkout (EU) 3.5 – ok!',
    );
  });
});

describe('markdownCode', () => {
  it('is a code span that no backtick closes', () => {
    for (const s of ['a`b', '`start', 'end`', '``', 'a ``` b', ' x ', '']) {
      const html = toHtml(markdownCode(s));
      expect(html.match(/<code>/g), s).toHaveLength(1);
      expect(seen(html.replace(/^<p><code>|<\/code><\/p>$/g, ''))).toBe(s.trim() === '' ? '' : s.trim());
    }
    expect(markdownCode('a\u001bb\nc')).toBe('`a\\x1bb\\nc`');
  });

  it('holds a pipe in a table cell', () => {
    const html = toHtml(`| h | i |\n| --- | --- |\n| ${markdownCode('a|b\\|c', { inTable: true })} | z |`);
    expect(html).toContain('<td><code>a|b\\|c</code></td>\n<td>z</td>');
  });
});

describe('markdownFence', () => {
  it('cannot be closed by a line of the body, and shows control characters but keeps lines', () => {
    const body = 'a\n```\n````\n</details>\n[x](https://evil)\rb\u001b[2J';
    const md = markdownFence('diff', body);
    expect(md.startsWith('`````diff\n')).toBe(true);
    const html = toHtml(`${md}\n\nafter`);
    expect(html).toMatch(/^<pre><code class="language-diff">[^<]*<\/code><\/pre>\n<p>after<\/p>$/);
    expect(html).toContain('a\n```\n````\n&lt;/details&gt;\n[x](https://evil)\\rb\\x1b[2J\n');
  });
});

describe('markdownLink', () => {
  it('links an http(s) URL that cannot leave the link or a table cell, and shows anything else as text', () => {
    const html = toHtml(`| s |\n| --- |\n| ${markdownLink('abc', 'https://x.example/a b|c)d>e [f](g)')} |`);
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('<a href="https://x.example/a%20b%7Cc)d%3Ee%20%5Bf%5D(g)">abc</a>');
    expect(markdownLink('[x]', 'javascript:alert(1)')).toBe('&#91;x&#93;');
    expect(markdownLink('x', 'not a url')).toBe('x');
  });
});
