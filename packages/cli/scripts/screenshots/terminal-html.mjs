// What a terminal shows of a program's output, as HTML: the bytes a pty gave (colours, bold and
// dim as SGR sequences; a live progress line redrawn with `\r` and erase-line) played onto a
// screen of `columns` cells, as a terminal would, then written out as spans. Pure: the screenshot
// script (screenshots.mjs) feeds it the capture of `monitor deploy --verify`.
import { escapeHtml, MARGIN, readyScript } from './page.mjs';

const PLAIN = Object.freeze({ fg: undefined, bold: false, dim: false, italic: false, underline: false });

const FOREGROUND = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** The style after one SGR sequence's parameters (`1;31`); 256-colour and RGB colours are skipped. */
export function applySgr(style, params) {
  const codes = params === '' ? [0] : params.split(';').map((p) => (p === '' ? 0 : Number(p)));
  let next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (code === 0) next = { ...PLAIN };
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 22) next = { ...next, bold: false, dim: false };
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code >= 30 && code <= 37) next.fg = FOREGROUND[code - 30];
    else if (code >= 90 && code <= 97) next.fg = `bright-${FOREGROUND[code - 90]}`;
    else if (code === 39) next.fg = undefined;
    // 38;5;n and 38;2;r;g;b (and their background forms): their arguments are not codes.
    else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4;
  }
  return next;
}

/** A screen that text is written onto: rows of cells, a cursor, the current style. */
function createScreen(columns) {
  const rows = [[]];
  let row = 0;
  let col = 0;
  let style = PLAIN;
  const line = () => {
    while (rows.length <= row) rows.push([]);
    return rows[row];
  };
  return {
    rows,
    put(char) {
      // Past the last column, the next character goes to the start of the next line.
      if (col >= columns) {
        row++;
        col = 0;
      }
      const cells = line();
      while (cells.length < col) cells.push({ char: ' ', style: PLAIN });
      cells[col] = { char, style };
      col++;
    },
    newline() {
      row++;
      col = 0;
      line();
    },
    carriageReturn() {
      col = 0;
    },
    backspace() {
      col = Math.max(0, Math.min(col, columns) - 1);
    },
    tab() {
      const to = Math.min(columns, (Math.floor(col / 8) + 1) * 8);
      while (col < to) this.put(' ');
    },
    /** CSI K: 0 (or none) from the cursor to the end of the line, 1 to the cursor, 2 all of it. */
    eraseInLine(mode) {
      const cells = line();
      if (mode === 2) cells.length = 0;
      else if (mode === 1)
        for (let i = 0; i <= col && i < cells.length; i++) cells[i] = { char: ' ', style: PLAIN };
      else cells.length = Math.min(cells.length, col);
    },
    sgr(params) {
      style = applySgr(style, params);
    },
  };
}

// A CSI sequence, an OSC sequence (a window title, a link), another escape, or one code point.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what it reads.
const TOKEN = /\u001b\[([0-9;?<=>]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]|[\s\S]/gu;

/** The screen after `text` (a pty's output) has been played onto it. */
export function playOnScreen(text, columns) {
  const screen = createScreen(columns);
  for (const [token, params, final] of text.matchAll(TOKEN)) {
    if (final === 'm') screen.sgr(params);
    else if (final === 'K') screen.eraseInLine(params === '' ? 0 : Number(params));
    else if (token === '\n') screen.newline();
    else if (token === '\r') screen.carriageReturn();
    else if (token === '\b') screen.backspace();
    else if (token === '\t') screen.tab();
    // Other sequences (cursor visibility, titles) change nothing a picture shows.
    else if (token.startsWith('\u001b') || token < ' ' || token === '\u007f') continue;
    else screen.put(token);
  }
  return screen.rows;
}

function classesOf(style) {
  return [
    style.fg === undefined ? '' : `fg-${style.fg}`,
    style.bold ? 'bold' : '',
    style.dim ? 'dim' : '',
    style.italic ? 'italic' : '',
    style.underline ? 'underline' : '',
  ]
    .filter((c) => c !== '')
    .join(' ');
}

/** One row of cells as HTML: a span per run of one style, unstyled text bare, trailing blanks dropped. */
function rowHtml(cells) {
  let end = cells.length;
  while (end > 0 && cells[end - 1].char === ' ' && classesOf(cells[end - 1].style) === '') end--;
  let out = '';
  let i = 0;
  while (i < end) {
    const classes = classesOf(cells[i].style);
    let text = '';
    while (i < end && classesOf(cells[i].style) === classes) text += cells[i++].char;
    out += classes === '' ? escapeHtml(text) : `<span class="${classes}">${escapeHtml(text)}</span>`;
  }
  return out;
}

/** What a terminal of `columns` columns shows of `text`, as HTML lines for a `<pre>`; trailing empty lines dropped. */
export function ansiToHtml(text, { columns }) {
  const lines = playOnScreen(text, columns).map(rowHtml);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

const TERMINAL_CSS = `
  html, body { margin: 0; background: #ffffff; }
  .window { display: inline-block; margin: ${MARGIN}px; border-radius: 10px; overflow: hidden;
    background: #0d1117; box-shadow: 0 2px 10px rgba(31, 35, 40, 0.25); }
  .bar { height: 30px; background: #2d333b; display: flex; align-items: center; padding: 0 12px;
    font: 13px 'DejaVu Sans', 'Liberation Sans', sans-serif; color: #adbac7; }
  .dot { width: 12px; height: 12px; border-radius: 50%; margin-right: 8px; }
  .title { flex: 1; text-align: center; margin-right: 60px; }
  pre { margin: 0; padding: 14px 18px 18px; color: #e6edf3; background: #0d1117;
    font: 13.5px/1.45 'DejaVu Sans Mono', 'Liberation Mono', monospace; white-space: pre; }
  .prompt { color: #7ee787; }
  .bold { font-weight: bold; }
  .dim { opacity: 0.62; }
  .italic { font-style: italic; }
  .underline { text-decoration: underline; }
  .fg-black { color: #484f58; } .fg-red { color: #ff7b72; } .fg-green { color: #3fb950; }
  .fg-yellow { color: #d29922; } .fg-blue { color: #58a6ff; } .fg-magenta { color: #bc8cff; }
  .fg-cyan { color: #39c5cf; } .fg-white { color: #b1bac4; }
  .fg-bright-black { color: #6e7681; } .fg-bright-red { color: #ffa198; }
  .fg-bright-green { color: #56d364; } .fg-bright-yellow { color: #e3b341; }
  .fg-bright-blue { color: #79c0ff; } .fg-bright-magenta { color: #d2a8ff; }
  .fg-bright-cyan { color: #56d4dd; } .fg-bright-white { color: #ffffff; }
`;

/**
 * A page with a terminal window of `columns` columns: `command` typed at a prompt, then what the
 * terminal showed (`ansiToHtml`'s lines).
 */
export function terminalPage({ command, screenHtml, columns }) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(command)}</title>
<style>${TERMINAL_CSS}  pre { width: ${columns}ch; }
</style></head>
<body><div class="window" id="content">
<div class="bar"><span class="dot" style="background:#ff5f57"></span><span class="dot" style="background:#febc2e"></span><span class="dot" style="background:#28c840"></span><span class="title">${escapeHtml(command)}</span></div>
<pre><span class="prompt">$</span> ${escapeHtml(command)}
${screenHtml}</pre>
</div>
${readyScript()}
</body></html>
`;
}
