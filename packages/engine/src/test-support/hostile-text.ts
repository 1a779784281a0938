import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { expect } from 'vitest';
import { escapeTerminal } from '../render/escape.js';

/**
 * Names an account (or a careless commit) can hold, each one a way markdown, GitHub or a terminal
 * would act on text instead of showing it.
 */
export const HOSTILE_TEXT = [
  '[Approve here](https://evil.example/x) @acme/admins #1',
  '![pixel](https://evil.example/p.png) [ref][1] [^1]',
  '<https://evil.example/auto> https://evil.example/bare www.evil.example ops@evil.example',
  '<img src=x onerror=alert(1)> <b>bold</b>',
  '</summary></details><details open><summary>x',
  '`tick` ``two`` ```three```',
  '**bold** __bold__ *em* _em_ ~~strike~~ ~one~',
  'a | b || c',
  'line one\nline two\r\n\n# heading after a blank line\n\n[link](https://evil.example)',
  '# heading',
  '- item',
  '+ item',
  '1. item',
  '> quote',
  '    indented code',
  '[x]: https://evil.example "title"',
  '&lt;b&gt; &amp; &#64; &copy;',
  '@\u200bacme/admins #\u200d2 zero\u200bwidth\ufeff',
  '\u202eevil\u202c \u2066isolate\u2069',
  '\u001b[2J\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007\u009b31m\u0085',
  'GH-3 acme/web#4 :smile: $x^2$ \\*not em\\*',
] as const;

/** GFM as GitHub renders comments, with the HTML of `<details>` let through. */
export const toHtml = (md: string) =>
  micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });

/** The elements of some HTML, in order. */
const elements = (html: string) => html.match(/<\/?[a-z][a-z0-9]*/gi) ?? [];

/** The text a reader sees: tags dropped, character references decoded. */
function readable(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** What GitHub turns into a mention, an issue reference, a link or an emoji in text outside code. */
const GITHUB_ACTIVE = /@[\p{L}\p{N}]|#\d|\bGH-\d|[a-z]+:\/\/|\bwww\.|:[a-z0-9_+-]+:/iu;

/**
 * Parse `markdown` with a GFM parser and check that `hostile` added nothing to it: the same
 * elements in the same order as `benign` (the same output with a plain word where the hostile
 * text was), so no link, autolink, image, HTML element, emphasis, heading, list or quote came from
 * the text; nothing outside code that GitHub would make a mention, a reference or a link; and the
 * hostile text is still there to read, control characters shown as their escapes.
 */
export function expectLiteralText(markdown: string, benign: string, hostile: string): void {
  const html = toHtml(markdown);
  expect(elements(html), markdown).toEqual(elements(toHtml(benign)));
  expect(html).not.toMatch(/<(a|img|em|del|h[1256])\b/);
  const outsideCode = readable(html.replace(/<pre>[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, ''));
  expect(outsideCode).not.toMatch(GITHUB_ACTIVE);
  expect(readable(html).replaceAll('\u200d', '')).toContain(escapeTerminal(hostile).trim());
}
