// A pull-request comment monitor wrote (markdown), as the page GitHub would show: GFM through
// `marked`, plus what GitHub adds to it: alerts (`> [!WARNING]`), coloured ```diff lines, ```mermaid
// blocks drawn by Mermaid, and emoji as images. Pure: the screenshot script (screenshots.mjs)
// loads the page in headless Chromium.
import { Marked } from 'marked';
import { escapeHtml, MARGIN, readyScript } from './page.mjs';

const ALERT = /^<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*/;

/** `> [!WARNING]` and its kind as GitHub draws it: a coloured bar and a title. */
function alertHtml(kind, bodyHtml) {
  const title = `${kind[0]}${kind.slice(1).toLowerCase()}`;
  const body = bodyHtml.replace(ALERT, '<p>').replace(/^<p><\/p>\n?/, '');
  return `<div class="markdown-alert markdown-alert-${kind.toLowerCase()}"><p class="markdown-alert-title">${title}</p>\n${body}</div>\n`;
}

/** A ```diff block with its added and removed lines marked, as GitHub colours them. */
function diffHtml(source) {
  const lines = source.split('\n').map((line) => {
    const kind = line.startsWith('+') ? 'addition' : line.startsWith('-') ? 'deletion' : '';
    return kind === '' ? escapeHtml(line) : `<span class="diff-${kind}">${escapeHtml(line)}</span>`;
  });
  return `<pre><code class="language-diff">${lines.join('\n')}</code></pre>\n`;
}

const markdown = new Marked({
  gfm: true,
  renderer: {
    blockquote({ tokens }) {
      const body = this.parser.parse(tokens);
      const kind = ALERT.exec(body)?.[1];
      return kind === undefined ? false : alertHtml(kind, body);
    },
    code({ text, lang }) {
      // Mermaid draws it in the page, from the source left as text.
      if (lang === 'mermaid') return `<pre class="mermaid">${escapeHtml(text)}</pre>\n`;
      if (lang === 'diff') return diffHtml(text);
      return false;
    },
  },
});

// Emoji monitor's comments use, drawn as GitHub draws emoji where the system has no emoji font
// (images), so that the picture does not depend on the fonts of the machine that takes it.
const svg = (body) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">${body}</svg>`)}`;
const EMOJI = {
  '❌': svg(
    '<path d="M3.5 3.5l9 9M12.5 3.5l-9 9" stroke="#e0343b" stroke-width="3" stroke-linecap="round"/>',
  ),
  '✅': svg(
    '<rect x="1" y="1" width="14" height="14" rx="3" fill="#2da44e"/><path d="M4.5 8.3l2.4 2.4 4.6-5" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
  ),
  '⚠️': svg(
    '<path d="M8 1.8L15 14.2H1z" fill="#f5c518" stroke="#c99a00" stroke-width="0.8" stroke-linejoin="round"/><path d="M8 6v4.2" stroke="#24292f" stroke-width="1.7" stroke-linecap="round"/><circle cx="8" cy="12.3" r="0.95" fill="#24292f"/>',
  ),
  '⏳': svg(
    '<path d="M4 1.5h8M4 14.5h8" stroke="#8c6d3f" stroke-width="1.4" stroke-linecap="round"/><path d="M4.8 2c0 3.2 2.4 4.2 2.4 6S4.8 10.8 4.8 14h6.4c0-3.2-2.4-4.2-2.4-6s2.4-2.8 2.4-6z" fill="#d8ecfa" stroke="#8c6d3f" stroke-width="0.9"/><path d="M6 13.3h4L8 10.8z" fill="#e3a63b"/>',
  ),
};
const EMOJI_PATTERN = /❌\uFE0F?|✅\uFE0F?|⏳\uFE0F?|⚠\uFE0F/gu;

/** The emoji of `html`'s text as images, leaving Mermaid's sources alone (Mermaid reads them as text). */
export function emojiAsImages(html) {
  return html
    .split(/(<pre class="mermaid">[\s\S]*?<\/pre>)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(EMOJI_PATTERN, (match) => {
            const emoji = match.replace('\uFE0F', '') === '⚠' ? '⚠️' : match.replace('\uFE0F', '');
            return `<img class="emoji" alt="${emoji}" src="${EMOJI[emoji]}">`;
          }),
    )
    .join('');
}

/**
 * The comment's markdown as GitHub renders it: GFM, alerts, diffs, Mermaid blocks and emoji. With
 * `openDetails`, every `<details>` is open, as after a reader has clicked them.
 */
export function commentHtml(source, { openDetails = false } = {}) {
  const html = emojiAsImages(markdown.parse(source));
  return openDetails ? html.replace(/<details>/g, '<details open>') : html;
}

const GITHUB_CSS = `
  html, body { margin: 0; background: #ffffff; }
  body { padding: ${MARGIN}px; width: fit-content; }
  .comment { width: 1000px; border: 1px solid #d0d7de; border-radius: 6px; }
  .comment-header { padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d0d7de;
    border-radius: 6px 6px 0 0; color: #59636e; font: 14px 'Liberation Sans', 'DejaVu Sans', sans-serif; }
  .markdown-body { padding: 16px; color: #1f2328; font: 14px/1.5 -apple-system, 'Segoe UI', 'Noto Sans',
    Helvetica, Arial, 'Liberation Sans', sans-serif; overflow-wrap: break-word; }
  .markdown-body > :first-child { margin-top: 0 !important; }
  .markdown-body > :last-child { margin-bottom: 0 !important; }
  .markdown-body h3, .markdown-body h4 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
  .markdown-body h3 { font-size: 1.25em; }
  .markdown-body h4 { font-size: 1em; }
  .markdown-body p, .markdown-body ul, .markdown-body table, .markdown-body pre,
  .markdown-body details, .markdown-body .markdown-alert { margin: 0 0 16px; }
  .markdown-body ul { padding-left: 2em; }
  .markdown-body ul ul { margin: 0; }
  .markdown-body li + li { margin-top: 0.25em; }
  .markdown-body code, .markdown-body pre { font-family: ui-monospace, SFMono-Regular, 'SF Mono', Menlo,
    Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace; }
  .markdown-body code { padding: 0.2em 0.4em; font-size: 85%; background: rgba(175, 184, 193, 0.2);
    border-radius: 6px; white-space: break-spaces; }
  .markdown-body pre { padding: 16px; font-size: 85%; line-height: 1.45; background: #f6f8fa;
    border-radius: 6px; overflow: hidden; white-space: pre-wrap; }
  .markdown-body pre code { padding: 0; font-size: 100%; background: transparent; white-space: inherit; }
  .markdown-body .diff-addition { color: #116329; background: #dafbe1; }
  .markdown-body .diff-deletion { color: #82071e; background: #ffebe9; }
  .markdown-body pre.mermaid { background: #ffffff; border: 1px solid #d0d7de; text-align: center; }
  .markdown-body table { border-spacing: 0; border-collapse: collapse; }
  .markdown-body th, .markdown-body td { padding: 6px 13px; border: 1px solid #d0d7de; }
  .markdown-body th { font-weight: 600; }
  .markdown-body tr:nth-child(2n) { background: #f6f8fa; }
  .markdown-body summary { cursor: pointer; }
  .markdown-body details > :not(summary):first-of-type { margin-top: 8px; }
  .markdown-body details > :last-child { margin-bottom: 0; }
  .markdown-body sub { color: #59636e; }
  .markdown-body a { color: #0969da; text-decoration: none; }
  .markdown-body img.emoji { width: 1.2em; height: 1.2em; vertical-align: -0.2em; }
  .markdown-alert { padding: 8px 16px; border-left: 0.25em solid #d0d7de; }
  .markdown-alert > :last-child { margin-bottom: 0; }
  .markdown-alert-title { font-weight: 500; margin-bottom: 4px !important; }
  .markdown-alert-note { border-left-color: #0969da; } .markdown-alert-note .markdown-alert-title { color: #0969da; }
  .markdown-alert-tip { border-left-color: #1a7f37; } .markdown-alert-tip .markdown-alert-title { color: #1a7f37; }
  .markdown-alert-important { border-left-color: #8250df; } .markdown-alert-important .markdown-alert-title { color: #8250df; }
  .markdown-alert-warning { border-left-color: #9a6700; } .markdown-alert-warning .markdown-alert-title { color: #9a6700; }
  .markdown-alert-caution { border-left-color: #cf222e; } .markdown-alert-caution .markdown-alert-title { color: #cf222e; }
`;

/** Draws the page's Mermaid blocks: a promise, for `readyScript`. */
const MERMAID_RUN = `(mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' }),
    mermaid.run({ querySelector: 'pre.mermaid' }))`;

/**
 * A page with one comment: `header` (text) above the comment's HTML (`commentHtml`). When the HTML
 * holds Mermaid blocks, the page loads Mermaid from `mermaidUrl` to draw them.
 */
export function commentPage({ header, bodyHtml, mermaidUrl }) {
  const mermaid = bodyHtml.includes('<pre class="mermaid">');
  if (mermaid && mermaidUrl === undefined) throw new Error('the comment has Mermaid blocks: give mermaidUrl');
  const scripts = mermaid
    ? `<script src="${escapeHtml(mermaidUrl)}"></script>\n${readyScript(MERMAID_RUN)}`
    : readyScript();
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(header)}</title>
<style>${GITHUB_CSS}</style></head>
<body><div class="comment" id="content">
<div class="comment-header">${escapeHtml(header)}</div>
<div class="markdown-body">
${bodyHtml}</div>
</div>
${scripts}
</body></html>
`;
}
