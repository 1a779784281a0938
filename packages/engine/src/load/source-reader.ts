import { readFileSync } from 'node:fs';

/** Reads each source file once; undefined for one that cannot be read. */
export function sourceReader(): (file: string) => string | undefined {
  const sources = new Map<string, string | undefined>();
  return (file: string) => {
    if (!sources.has(file)) {
      try {
        sources.set(file, readFileSync(file, 'utf8'));
      } catch {
        sources.set(file, undefined);
      }
    }
    return sources.get(file);
  };
}
