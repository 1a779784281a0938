import { readFileSync } from 'node:fs';
import { type SourceReader, SourceText } from './prop-location.js';

export type { SourceReader } from './prop-location.js';

/**
 * How many files a reader keeps. Its users go through a project file by file (constructs are made
 * in the order of their files, and diagnostics are sorted by file), so a few suffice; keeping
 * every file read (33 MB at 50,000 constructs) made each run's peak that much higher.
 */
const KEPT_SOURCES = 32;

/** A `SourceReader` that keeps the files it read last, with what was found in them. */
export function sourceReader(): SourceReader {
  const sources = new Map<string, SourceText | undefined>();
  return (file: string) => {
    let source = sources.get(file);
    if (source !== undefined || sources.has(file)) {
      // The most recently used last: the first one is the one to let go of.
      sources.delete(file);
      sources.set(file, source);
      return source;
    }
    try {
      source = new SourceText(readFileSync(file, 'utf8'));
    } catch {
      source = undefined;
    }
    sources.set(file, source);
    if (sources.size > KEPT_SOURCES) sources.delete(sources.keys().next().value as string);
    return source;
  };
}
