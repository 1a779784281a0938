import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sourceReader } from './source-reader.js';

describe('sourceReader', () => {
  it('keeps the files it read last, reads one it let go of again, and answers undefined for a missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'monitor-sources-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const files = Array.from({ length: 40 }, (_, i) => join(dir, `f${i}.ts`));
    for (const [i, f] of files.entries()) writeFileSync(f, `// file ${i}\nconst x = ${i};\n`);
    const sourceOf = sourceReader();
    const first = files.map((f) => sourceOf(f));
    expect(first.map((s) => s?.line(2))).toEqual(files.map((_, i) => `const x = ${i};`));
    // The last ones read are kept as they were (with what was found in them).
    expect(sourceOf(files[39] as string)).toBe(first[39]);
    // The first were let go of: read again, from the file as it is now.
    writeFileSync(files[0] as string, '// file 0\nconst x = "changed";\n');
    const again = sourceOf(files[0] as string);
    expect(again).not.toBe(first[0]);
    expect(again?.line(2)).toBe('const x = "changed";');
    expect(sourceOf(join(dir, 'missing.ts'))).toBeUndefined();
    expect(sourceOf(join(dir, 'missing.ts'))).toBeUndefined();
  });
});
