import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FRAME = /(file:\/\/[^\s()]+?\.js|\/[^\s():]+?\.js):(\d+):(\d+)/g;

/**
 * A stack trace whose positions in monitor's built files (bundled at build time: `dist/chunk-*.js`)
 * are turned into the TypeScript positions they came from, by the source map beside each file.
 * Positions without a map stay as they are. Only for an internal error's stack: it reads files.
 */
export function readableStack(stack: string): string {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (path: string) => {
    if (!maps.has(path)) {
      try {
        maps.set(path, new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))));
      } catch {
        maps.set(path, undefined);
      }
    }
    return maps.get(path);
  };
  return stack.replace(FRAME, (whole, file: string, line: string, column: string) => {
    const path = file.startsWith('file:') ? fileURLToPath(file) : file;
    const origin = mapOf(path)?.findOrigin(Number(line), Number(column)) as
      | { fileName?: string; lineNumber?: number; columnNumber?: number }
      | undefined;
    if (origin?.fileName === undefined || origin.lineNumber === undefined) return whole;
    // Sources are relative to the map's file.
    const source = fileURLToPath(new URL(origin.fileName, pathToFileURL(path)));
    return `${source}:${origin.lineNumber}:${origin.columnNumber ?? 1}`;
  });
}
