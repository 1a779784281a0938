import { readFileSync } from 'node:fs';
import { cliReference, constructReference } from '@monitor/cli';
import { describe, expect, it } from 'vitest';

describe('generated references', () => {
  it('docs/cli.md is the help of every command as the CLI prints it now (npm run docs regenerates it)', async () => {
    const committed = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');
    const current = await cliReference();
    // A stale reference fails here: run `npm run docs` and commit docs/cli.md.
    expect(committed).toBe(current);
    expect(current).toContain('## monitor status-pages subscriptions delete\n');
  });

  it('docs/constructs-reference.md is the TSDoc of every construct and prop as the package declares it now', () => {
    const committed = readFileSync(new URL('../docs/constructs-reference.md', import.meta.url), 'utf8');
    const current = constructReference();
    // A stale reference fails here: run `npm run docs` and commit docs/constructs-reference.md.
    expect(committed).toBe(current);
    expect(current).toContain('### CheckGroupProps\n');
    expect(current).toMatch(
      /\| `doubleCheck\?` \| `boolean` \| false \| \*\*Deprecated:\*\* Superseded by `retryStrategy`/,
    );
    // Every prop has a description: a row whose last cell is empty is a prop without TSDoc.
    const undocumented = current.split('\n').filter((line) => /^\| `/.test(line) && /\|\s*\|$/.test(line));
    expect(undocumented).toEqual([]);
  });
});
