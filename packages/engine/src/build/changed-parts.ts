import { basename } from 'node:path';
import type { Metafile } from 'esbuild';

/**
 * After an edit of a large project, only the parts (split.ts) that reach an edited module are
 * built again; the others are taken from the kept build. A part that shares no module of the
 * project with another part is built alone as it is built with all the others: its own modules,
 * its imports of externals, and esbuild's helpers (`__name` for `keepNames`), which are pure
 * functions: in a chunk with all the others, in the part itself alone (then the text differs, not
 * what runs). So a part is kept only where that holds: the parts built again must reach no module
 * that a kept part reaches, before and after the edit (a module they share would be one instance
 * in a chunk in one build, and a copy of its own in each here). Bundling 20,000 constructs takes
 * about a second; building the part one edit touched, tens of milliseconds.
 */

type Input = Metafile['inputs'][string];
type Output = Metafile['outputs'][string];

/**
 * The metafile with its outputs named by file name alone (as the kept build names them), keys
 * and imports of chunks alike: builds write into directories of their own, and a kept part's
 * output must keep its name beside the outputs of a later build.
 */
export function outputsByName(metafile: Metafile): Metafile {
  const outputs: Record<string, Output> = {};
  for (const [path, output] of Object.entries(metafile.outputs)) {
    outputs[basename(path)] = {
      ...output,
      imports: output.imports.map((i) => (i.external ? i : { ...i, path: basename(i.path) })),
    };
  }
  return { inputs: metafile.inputs, outputs };
}

/**
 * The names `starts` import, directly or not, in `graph` (the metafile's inputs or its outputs,
 * which name their imports alike), externals left out and `starts` in; added to `into`.
 */
function reached(
  graph: Record<string, { imports: readonly { path: string; external?: boolean }[] } | undefined>,
  starts: Iterable<string>,
  into = new Set<string>(),
): Set<string> {
  const stack = [...starts];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (into.has(name)) continue;
    into.add(name);
    for (const imported of graph[name]?.imports ?? []) if (!imported.external) stack.push(imported.path);
  }
  return into;
}

/**
 * The parts to build again, by index, when the modules named `changed` (metafile names) were
 * edited: those that reach one. Undefined when the edit is not one of module sources only (a
 * changed name that no part reaches), or when every part would be built anyway.
 */
export function partsToRebuild(
  kept: Metafile,
  parts: readonly string[],
  changed: ReadonlySet<string>,
): number[] | undefined {
  const rebuild: number[] = [];
  const byAny = new Set<string>();
  parts.forEach((part, i) => {
    const modules = reached(kept.inputs, [part]);
    for (const m of modules) byAny.add(m);
    if ([...changed].some((name) => modules.has(name))) rebuild.push(i);
  });
  if ([...changed].some((name) => !byAny.has(name))) return undefined;
  return rebuild.length === 0 || rebuild.length === parts.length ? undefined : rebuild;
}

/**
 * The metafile of the whole split build once the parts `rebuilt` (entry names) were built again
 * into `fresh`: the kept build's outputs for the other parts (and the chunks they import, which
 * `keptOutputs` names), and the new ones. Undefined when a rebuilt part reaches a module that a
 * kept part reaches, in the kept build or in the new one: that module would run twice.
 */
export function mergeParts(
  kept: Metafile,
  fresh: Metafile,
  parts: readonly string[],
  rebuilt: readonly string[],
): { metafile: Metafile; keptOutputs: ReadonlySet<string> } | undefined {
  const keptParts = parts.filter((p) => !rebuilt.includes(p));
  const keptModules = reached(kept.inputs, keptParts);
  const before = reached(kept.inputs, rebuilt);
  const after = reached(fresh.inputs, rebuilt);
  for (const m of [...before, ...after]) if (keptModules.has(m)) return undefined;

  // The kept parts' outputs, and the chunks those import.
  const keptOutputs = reached(
    kept.outputs,
    Object.entries(kept.outputs)
      .filter(([, o]) => o.entryPoint !== undefined && keptParts.includes(o.entryPoint))
      .map(([name]) => name),
  );
  const inputs: Record<string, Input> = {};
  for (const [name, input] of Object.entries(kept.inputs)) if (keptModules.has(name)) inputs[name] = input;
  Object.assign(inputs, fresh.inputs);
  const outputs: Record<string, Output> = {};
  for (const [name, output] of Object.entries(kept.outputs)) {
    if (keptOutputs.has(name) || keptOutputs.has(name.replace(/\.map$/, ''))) outputs[name] = output;
  }
  Object.assign(outputs, fresh.outputs);
  return { metafile: { inputs, outputs }, keptOutputs };
}
