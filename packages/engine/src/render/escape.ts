/**
 * Text that comes from the account or the code is data. These are the only ways it goes into
 * output: `escapeTerminal` for text output, `escapeMarkdown` (with `markdownCode`, `markdownFence`
 * and `markdownLink` for the code and link contexts) for pull-request comments, issues and job
 * summaries. Every renderer uses them, so a name can never become a link, a mention, HTML or an
 * ANSI sequence.
 */

/**
 * What a terminal or a renderer acts on instead of showing: C0 and C1 controls (ESC, BEL, CR, …),
 * DEL, format characters (bidi overrides, zero-width characters) and the line and paragraph
 * separators. `\r\n` first, so that a multi-line value can keep its line breaks.
 */
const CONTROL = /\r\n|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/** A zero-width joiner inside an emoji sequence (👩‍💻) is part of the emoji, not a trick. */
function joinsEmoji(text: string, at: number): boolean {
  return (
    /\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?$/u.test(text.slice(Math.max(0, at - 3), at)) &&
    /^\p{Extended_Pictographic}/u.test(text.slice(at + 1, at + 3))
  );
}

/** Printable ASCII has none of them: most text is checked by this plain scan alone (3× faster). */
const BEYOND_PRINTABLE_ASCII = /[^\x20-\x7e]/;

function showControls(text: string, multiline: boolean): string {
  if (!BEYOND_PRINTABLE_ASCII.test(text)) return text;
  return text.replace(CONTROL, (char, at: number) => {
    if (multiline && (char === '\n' || char === '\t')) return char;
    if (multiline && char === '\r\n') return '\n';
    if (char === '\u200d' && joinsEmoji(text, at)) return char;
    return char === '\r\n' ? '\\r\\n' : visible(char);
  });
}

/**
 * Account or code text for a terminal: every control character shown as its escape (`\x1b`,
 * `\x07`, `\u202e`), so that no escape sequence, hyperlink, bell, carriage return or bidi
 * override reaches the terminal. With `multiline`, line breaks (and tabs) stay, as in the
 * lines of a diff or a response body; `\r\n` becomes `\n`.
 */
export function escapeTerminal(text: string, options: { multiline?: boolean } = {}): string {
  return showControls(text, options.multiline === true);
}

const ZWJ = '\u200d';

/** Characters markdown (or GFM, or HTML) gives a meaning, as numeric character references. */
const SYNTAX: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\\': '&#92;',
  '`': '&#96;',
  '*': '&#42;',
  _: '&#95;',
  '~': '&#126;',
  '[': '&#91;',
  ']': '&#93;',
  '|': '&#124;',
  $: '&#36;',
  // A heading at a line's start; with the joiner, never an issue reference (#1, acme/web#1).
  '#': `&#35;${ZWJ}`,
  // Never a mention (@org/team) or an e-mail autolink.
  '@': `@${ZWJ}`,
};

const MARKDOWN =
  // `_` inside a word cannot start or end emphasis; what starts the text could start a block (a
  // list item, a heading, indented code); `://` and `www.` would be autolinked, `:smile:` an
  // emoji, `GH-1` an issue reference.
  /[&<>\\`*~[\]|$#@]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|^(?:[-+=\s]|\d+[.)])|:(?=\/\/|[\w+-]+:)|(?<=\bwww)\.|(?<=\bGH)-(?=\d)/giu;

const reference = (char: string) => `&#${char.codePointAt(0)};`;

function escapeSyntax(match: string, at: number): string {
  const named = SYNTAX[match];
  if (named !== undefined) return named;
  if (at === 0 && match !== ':') return `${match.slice(0, -1)}${reference(match.slice(-1))}`;
  return match === ':' ? `:${ZWJ}` : `${ZWJ}${match}`;
}

/**
 * Account or code text for markdown (GFM, as GitHub and GitLab render comments): it shows as
 * the literal text wherever text may go, in a paragraph, a list item, a table cell or inside
 * HTML such as `<summary>`. Markdown and HTML syntax become character references, control
 * characters their visible escapes (a line break too: the text stays on its line), and a
 * zero-width joiner after `@`, `#` and in `://`, `www.` and `GH-1` keeps GitHub from making
 * mentions, issue references and links of them.
 */
export function escapeMarkdown(text: string): string {
  return showControls(text, false).replace(MARKDOWN, escapeSyntax);
}

/** The longest run of backticks in `text`. */
function longestBackticks(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

/**
 * Text as an inline code span that no backtick in it can close; control characters shown as
 * their escapes. In a table cell (`inTable`), a pipe cannot end the cell.
 */
export function markdownCode(text: string, options: { inTable?: boolean } = {}): string {
  const body = showControls(text, false);
  // `\|` is how a table cell holds a pipe, but `\\|` would end the cell: HTML code is safe there.
  if (options.inTable === true && body.includes('|')) return `<code>${escapeMarkdown(text)}</code>`;
  const fence = '`'.repeat(longestBackticks(body) + 1);
  // A space each side when the content starts or ends with a backtick or a space (which a
  // code span would otherwise eat).
  const pad = body === '' || /^[`\s]|[`\s]$/.test(body) ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A fenced code block that no line of `body` can close; line breaks stay, other controls are shown. */
export function markdownFence(info: string, body: string): string {
  const fence = '`'.repeat(Math.max(3, longestBackticks(body) + 1));
  return `${fence}${info}\n${showControls(body, true)}\n${fence}`;
}

/**
 * A link to a URL the service gave (a session's page): an http(s) URL, percent-encoded so that
 * it cannot leave the link or a table cell; anything else is shown as text, not linked.
 */
export function markdownLink(text: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return escapeMarkdown(text);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return escapeMarkdown(text);
  const href = parsed.href.replace(/[<>|\\\s`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${escapeMarkdown(text)}](<${href}>)`;
}

/**
 * What a Mermaid label shows as it is written: letters, digits, spaces and punctuation that mean
 * nothing to Mermaid, HTML or markdown. Anything else is an entity code.
 */
const MERMAID_SPECIAL = /[^\p{L}\p{N} .,:_\-/()'!?+=…–—“”‘’→]/gu;

/**
 * Account or code text for a Mermaid label (inside `"…"`): quotes, `#`, `;`, `%`, backticks,
 * brackets and HTML become Mermaid's entity codes (`#34;`), which it shows as the character, so
 * no text can end the label, start a comment or a markdown string, or become HTML; control
 * characters are shown as their escapes.
 */
export function escapeMermaid(text: string): string {
  return showControls(text, false).replace(MERMAID_SPECIAL, (char) => `#${char.codePointAt(0)};`);
}

/**
 * Account or code text for a Graphviz label (inside `"…"`): backslashes (which start `\n`, `\l`
 * and Graphviz's `\N` names) and quotes escaped; control characters shown as their escapes.
 */
export function escapeDot(text: string): string {
  return showControls(text, false).replace(/[\\"]/g, (char) => `\\${char}`);
}
