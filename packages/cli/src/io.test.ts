import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from './io.js';

describe('heapGrowthFlag', () => {
  it('has V8 collect the old generation once it grows by half', () => {
    expect(heapGrowthFlag([])).toBe('--heap-growing-percent=50');
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=4096'])).toBe(
      '--heap-growing-percent=50',
    );
  });

  it("leaves the heap growth the person chose, in either spelling, with the value after '=' or apart", () => {
    expect(heapGrowthFlag(['--heap-growing-percent=300'])).toBeUndefined();
    expect(heapGrowthFlag(['--inspect', '--heap_growing_percent', '10'])).toBeUndefined();
  });

  it('names a flag that this V8 knows: an unknown one is an error message on every deploy (Node 22)', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const name = (heapGrowthFlag([]) as string).split('=')[0] as string;
    expect(options).toContain(`${name} (`);
  });
});
