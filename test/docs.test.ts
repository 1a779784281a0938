import { readFileSync } from 'node:fs';
import { cliReference } from '@monitor/cli';
import { describe, expect, it } from 'vitest';

describe('generated references', () => {
  it('docs/cli.md is the help of every command as the CLI prints it now (npm run docs regenerates it)', async () => {
    const committed = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');
    const current = await cliReference();
    // A stale reference fails here: run `npm run docs` and commit docs/cli.md.
    expect(committed).toBe(current);
    expect(current).toContain('## monitor status-pages subscriptions delete\n');
  });
});
