import { describe, expect, it } from 'vitest';
import { metafile } from '../test-support/metafile.js';
import { mergeParts, outputsByName, partsToRebuild } from './changed-parts.js';

const PARTS = ['monitor-part:0', 'monitor-part:1', 'monitor-part:2'];

/** Three parts: 0 and 1 share `shared.ts` (in a chunk), 2 has a helper of its own. */
const kept = metafile(
  {
    'monitor-part:0': ['a.ts'],
    'monitor-part:1': ['b.ts'],
    'monitor-part:2': ['c.ts'],
    'a.ts': ['shared.ts', '!ext'],
    'b.ts': ['shared.ts'],
    'c.ts': ['helper.ts'],
    'shared.ts': [],
    'helper.ts': ['!ext'],
  },
  {
    'p0.mjs': { entry: 'monitor-part:0', imports: ['chunk.mjs', '!ext'], inputs: ['a.ts'] },
    'p0.mjs.map': { inputs: [] },
    'p1.mjs': { entry: 'monitor-part:1', imports: ['chunk.mjs'], inputs: ['b.ts'] },
    'p1.mjs.map': { inputs: [] },
    'chunk.mjs': { inputs: ['shared.ts'] },
    'chunk.mjs.map': { inputs: [] },
    'p2.mjs': { entry: 'monitor-part:2', imports: ['!ext'], inputs: ['c.ts', 'helper.ts'] },
    'p2.mjs.map': { inputs: [] },
  },
);

describe('partsToRebuild', () => {
  it.each([
    ['a module of one part', ['c.ts'], [2]],
    ['a module one part reaches through another', ['helper.ts'], [2]],
    ['a module two parts share', ['shared.ts'], [0, 1]],
    ['modules of two parts', ['a.ts', 'b.ts'], [0, 1]],
  ])('builds again the parts that reach %s', (_, changed, expected) => {
    expect(partsToRebuild(kept, PARTS, new Set(changed))).toEqual(expected);
  });

  it('builds every part when an edit reaches all of them (undefined: one whole build)', () => {
    expect(partsToRebuild(kept, PARTS, new Set(['shared.ts', 'c.ts']))).toBeUndefined();
  });

  it('builds every part when a changed file is no module of the build', () => {
    expect(partsToRebuild(kept, PARTS, new Set(['c.ts', 'tsconfig.json']))).toBeUndefined();
  });
});

describe('mergeParts', () => {
  it('keeps the outputs of the parts not built again, with the chunks they import, beside the new', () => {
    const fresh = metafile(
      { 'monitor-part:2': ['c.ts'], 'c.ts': ['helper.ts', 'extra.ts'], 'helper.ts': [], 'extra.ts': [] },
      { 'p2-new.mjs': { entry: 'monitor-part:2', inputs: ['c.ts', 'helper.ts', 'extra.ts'] } },
    );
    const merged = mergeParts(kept, fresh, PARTS, ['monitor-part:2']);
    expect([...(merged?.keptOutputs ?? [])].sort()).toEqual(['chunk.mjs', 'p0.mjs', 'p1.mjs']);
    expect(Object.keys(merged?.metafile.outputs ?? {}).sort()).toEqual(
      ['chunk.mjs', 'chunk.mjs.map', 'p0.mjs', 'p0.mjs.map', 'p1.mjs', 'p1.mjs.map', 'p2-new.mjs'].sort(),
    );
    expect(Object.keys(merged?.metafile.inputs ?? {}).sort()).toEqual(
      [
        'a.ts',
        'b.ts',
        'c.ts',
        'extra.ts',
        'helper.ts',
        'monitor-part:0',
        'monitor-part:1',
        'monitor-part:2',
        'shared.ts',
      ].sort(),
    );
    // The new part's graph, not the kept one's.
    expect(merged?.metafile.inputs['c.ts']?.imports.map((i) => i.path)).toEqual(['helper.ts', 'extra.ts']);
  });

  it('refuses when a part built again now reaches a module a kept part reaches', () => {
    const fresh = metafile(
      { 'monitor-part:2': ['c.ts'], 'c.ts': ['shared.ts'], 'shared.ts': [] },
      { 'p2-new.mjs': { entry: 'monitor-part:2', inputs: ['c.ts', 'shared.ts'] } },
    );
    expect(mergeParts(kept, fresh, PARTS, ['monitor-part:2'])).toBeUndefined();
  });

  it('refuses when a part built again reached, before the edit, a module a kept part reaches', () => {
    const fresh = metafile(
      { 'monitor-part:1': ['b.ts'], 'b.ts': [] },
      { 'p1-new.mjs': { entry: 'monitor-part:1', inputs: ['b.ts'] } },
    );
    expect(mergeParts(kept, fresh, PARTS, ['monitor-part:1'])).toBeUndefined();
  });
});

describe('outputsByName', () => {
  it('names outputs and the chunks they import by file name; externals stay as they are', () => {
    const named = outputsByName(
      metafile(
        { 'monitor-part:0': ['a.ts'], 'a.ts': [] },
        {
          '.monitor/cache/output-x/p0.mjs': {
            entry: 'monitor-part:0',
            imports: ['.monitor/cache/output-x/chunk.mjs', '!./ext/thing.js'],
            inputs: ['a.ts'],
          },
          '.monitor/cache/output-x/chunk.mjs': { inputs: [] },
        },
      ),
    );
    expect(Object.keys(named.outputs)).toEqual(['p0.mjs', 'chunk.mjs']);
    expect(named.outputs['p0.mjs']?.imports.map((i) => i.path)).toEqual(['chunk.mjs', './ext/thing.js']);
  });
});
