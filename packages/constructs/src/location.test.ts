import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// Run as plain Node runs a project's code (no test transform moves its lines), from the build
// (`npm test` builds first).
const DIST = new URL('../dist/index.js', import.meta.url).href;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Run `lines` as a module of their own in Node (with `gc()`); what it printed, parsed. */
function runModule(lines: string[]): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'monitor-location-'));
  dirs.push(dir);
  const file = join(dir, 'project.mjs');
  writeFileSync(file, `${lines.join('\n')}\n`);
  // Nothing of the caller's Node options or colour settings, which could add warnings.
  const { NODE_OPTIONS: _options, FORCE_COLOR: _force, NO_COLOR: _no, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--expose-gc', file], { encoding: 'utf8', env });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

describe('where a construct was made', () => {
  it('is the line of the `new`, through subclasses with and without a constructor of their own', () => {
    const found = runModule([
      `import { CheckGroup, createSession, synth } from ${JSON.stringify(DIST)};`,
      'createSession();',
      'class DefaultSubclass extends CheckGroup {}',
      'class ExplicitSubclass extends DefaultSubclass { constructor(id) { super(id, { name: id }); } }',
      'class Team { constructor(id) { this.group = new CheckGroup(id, { name: id }); } }',
      "new DefaultSubclass('default', { name: 'default' });", // line 6
      "new ExplicitSubclass('explicit');", // line 7
      "new Team('team');", // line 8
      'const { resources } = synth();',
      'console.log(JSON.stringify(resources.map((r) => [r.logicalId, r.location.line, r.location.column])));',
    ]);
    expect(found).toEqual([
      ['default', 6, 1],
      ['explicit', 7, 1],
      ['team', 8, 1],
    ]);
  });

  it('is read from the construct itself when it comes from a copy of the package without a caller locator', () => {
    const found = runModule([
      `import { CheckGroup, createSession, synth } from ${JSON.stringify(DIST)};`,
      'createSession();',
      "const group = new CheckGroup('older', { name: 'older' });", // line 3
      // What a construct of an older copy lacks: synthesis then asks the construct for its location.
      "Object.defineProperty(group, Symbol.for('@monitor/constructs.callerLocator'), { value: undefined });",
      'const { resources, diagnostics } = synth();',
      'console.log(JSON.stringify({ diagnostics, at: [resources[0].location?.line, resources[0].location?.column] }));',
    ]);
    expect(found).toEqual({ diagnostics: [], at: [3, 15] });
  });

  it('keeps the construct alive no longer than synthesis: a resource keeps only its captured stack', () => {
    const found = runModule([
      `import { CheckGroup, createSession, synth } from ${JSON.stringify(DIST)};`,
      'createSession();',
      "let group = new CheckGroup('g', { name: 'G', tags: ['x'] });", // line 3
      'const made = new WeakRef(group);',
      'group = undefined;',
      'const { resources } = synth();',
      'createSession();',
      'await new Promise((r) => setTimeout(r, 0));',
      'globalThis.gc();',
      'console.log(JSON.stringify({ freed: made.deref() === undefined, line: resources[0].location?.line }));',
    ]);
    // Freed, and its location is still there to read, from the stack alone.
    expect(found).toEqual({ freed: true, line: 3 });
  });
});
