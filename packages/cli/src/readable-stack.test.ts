import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { readableStack } from './readable-stack.js';

const dir = mkdtempSync(join(tmpdir(), 'monitor-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readableStack', () => {
  it('turns positions in a bundled file into the TypeScript positions, by its source map', async () => {
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'src', 'boom.ts'),
      'const unused: number = 1;\nexport function boom(): never {\n  throw new Error("boom");\n}\n',
    );
    writeFileSync(join(dir, 'src', 'entry.ts'), "export { boom } from './boom.js';\n");
    await build({
      entryPoints: [join(dir, 'src', 'entry.ts')],
      outdir: join(dir, 'dist'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      sourcemap: 'linked',
      banner: { js: '// a line more, so that bundle and source lines differ\n' },
      logLevel: 'silent',
    });
    // The stack as Node prints it without source maps (vitest maps stacks itself, so it is written
    // here): the position of the throw in the bundle, by the bundle's text.
    const bundled = join(dir, 'dist', 'entry.js');
    const lines = readFileSync(bundled, 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('throw new Error("boom")')) + 1;
    const column = (lines[line - 1] ?? '').indexOf('throw') + 1;
    expect(line).toBeGreaterThan(3);
    const stack = `Error: boom\n    at boom (${pathToFileURL(bundled).href}:${line}:${column})\n    at main (${bundled}:${line}:${column})`;
    const readable = readableStack(stack);
    // Lines map exactly; columns as closely as the bundler's map says.
    const at = `${join(dir, 'src', 'boom.ts')}:3:\\d+`.replaceAll('/', '\\/').replaceAll('.', '\\.');
    expect(readable).toMatch(new RegExp(`^Error: boom\\n    at boom \\(${at}\\)\\n    at main \\(${at}\\)$`));
  });

  it('leaves positions in files without a source map as they are', () => {
    const stack = `Error: x\n    at f (${join(dir, 'nowhere.js')}:10:5)\n    at node:internal/process/task_queues:95:5`;
    expect(readableStack(stack)).toBe(stack);
  });
});
