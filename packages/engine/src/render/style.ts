/** How text is painted: the CLI passes colours (or none); the engine never decides. */
export interface Style {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const same = (s: string) => s;
/** No colour at all. */
export const PLAIN: Style = { red: same, yellow: same, green: same, cyan: same, dim: same, bold: same };
