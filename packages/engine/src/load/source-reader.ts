import { readFileSync } from 'node:fs';
import { SourceText } from './prop-location.js';

/** A project's source files for one run: each read once, undefined for one that cannot be read. */
export type SourceReader = (file: string) => SourceText | undefined;

/** A `SourceReader` that keeps every file it read, with what was found in it, until it is dropped. */
export function sourceReader(): SourceReader {
  const sources = new Map<string, SourceText | undefined>();
  return (file: string) => {
    if (!sources.has(file)) {
      try {
        sources.set(file, new SourceText(readFileSync(file, 'utf8')));
      } catch {
        sources.set(file, undefined);
      }
    }
    return sources.get(file);
  };
}
