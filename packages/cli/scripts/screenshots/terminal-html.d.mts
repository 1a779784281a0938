export interface TerminalStyle {
  fg: string | undefined;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

export interface Cell {
  char: string;
  style: TerminalStyle;
}

/** The style after one SGR sequence's parameters (`1;31`); 256-colour and RGB colours are skipped. */
export function applySgr(style: TerminalStyle, params: string): TerminalStyle;

/** The screen after `text` (a pty's output) has been played onto it: rows of cells. */
export function playOnScreen(text: string, columns: number): Cell[][];

/** What a terminal of `columns` columns shows of `text`, as HTML lines for a `<pre>`; trailing empty lines dropped. */
export function ansiToHtml(text: string, options: { columns: number }): string;

/** A page with a terminal window of `columns` columns: `command` typed at a prompt, then `screenHtml`. */
export function terminalPage(options: { command: string; screenHtml: string; columns: number }): string;
