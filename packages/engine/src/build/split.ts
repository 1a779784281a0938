import type { Metafile } from 'esbuild';

/**
 * A large project is bundled as several modules instead of one. V8 compiles a module whole, and
 * compiling one module of 40 MB (50,000 constructs) takes ~500 MB on top of the project itself;
 * twenty modules of 2 MB take a twentieth of that at a time, and less time in all.
 *
 * The split must not change what runs when: a bundle evaluates its externals first, then every
 * module of the project once, in the order of the imports. The parts are consecutive runs of the
 * construct files, loaded one after the other by a main module that first imports every external
 * in the bundle's order; code that several parts share goes into chunks, which a part imports
 * before its own code. That keeps the order only when each shared module would have run before
 * the part's own modules anyway, so the order of the split output is worked out from esbuild's
 * metafile and compared with the bundle's; when they differ, the project is bundled whole.
 */

/** Below this much source in the construct files, a project is bundled whole. */
export const SPLIT_FROM_BYTES = 4 * 1024 * 1024;
/**
 * About how much source of the construct files goes into one part. Small, because a module's
 * top-level code is one function to V8, and V8 finds the source position of a call in a function
 * by reading the function's position table from its start: each construct's position (which every
 * finding and diagnostic names) costs time in proportion to the part's size. Parts of 2 MB made
 * the positions of 15,000 findings in 20,000 constructs cost 490 ms; parts of 256 KB, 70 ms.
 */
export const PART_BYTES = 256 * 1024;

/** The namespace of the parts' entry modules (each imports its run of construct files). */
export const PART_NAMESPACE = 'monitor-part';

/** Consecutive runs of `files` of about `PART_BYTES` each; undefined when the files are too few to split. */
export function splitParts(
  files: readonly string[],
  sizeOf: (file: string) => number,
): string[][] | undefined {
  const sizes = files.map(sizeOf);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total < SPLIT_FROM_BYTES) return undefined;
  const parts: string[][] = [[]];
  let size = 0;
  files.forEach((file, i) => {
    const current = parts[parts.length - 1] as string[];
    if (size >= PART_BYTES && current.length > 0) {
      parts.push([file]);
      size = 0;
    } else current.push(file);
    size += sizes[i] ?? 0;
  });
  return parts.length > 1 ? parts : undefined;
}

type Input = Metafile['inputs'][string];

const isPart = (name: string) => name.startsWith(`${PART_NAMESPACE}:`);

/**
 * When the split build evaluates the project's modules in the order one bundle of the same
 * files would, the externals in the order that bundle evaluates them (first, before any module
 * of the project); otherwise undefined. `parts`: the metafile names of the parts' entries, in order.
 */
export function splitOrder(metafile: Metafile, parts: readonly string[]): string[] | undefined {
  const { inputs, outputs } = metafile;
  // Anything but static imports of ES modules runs at a time the order below cannot tell.
  for (const input of Object.values(inputs)) {
    if (input.format === 'cjs') return undefined;
    for (const imported of input.imports) {
      if (imported.kind !== 'import-statement') return undefined;
      if (imported.external && imported.with !== undefined) return undefined;
    }
  }

  // One bundle: the modules in the order ESM evaluates them, each after its imports. (The
  // metafile lists an import TypeScript drops, one only types use, as external: left out here.)
  const bundleOrder: string[] = [];
  const visited = new Set<string>();
  // Modules that import each other: esbuild orders them its own way; then no split is checked.
  let cycle = false;
  const open = new Set<string>();
  const visit = (name: string) => {
    if (open.has(name)) cycle = true;
    if (visited.has(name)) return;
    visited.add(name);
    const input = inputs[name] as Input | undefined;
    if (input === undefined) return;
    open.add(name);
    for (const imported of input.imports) if (!imported.external) visit(imported.path);
    open.delete(name);
    if (!isPart(name)) bundleOrder.push(name);
  };
  for (const part of parts) visit(part);
  if (cycle) return undefined;

  // The split output: each part after the chunks it imports, each file's modules in its order;
  // the externals its code imports, in that order too (one bundle has the same code in the same
  // order, so its imports first appear in this order).
  const withCode = new Set<string>();
  const splitOrder: string[] = [];
  const externals: string[] = [];
  const evaluated = new Set<string>();
  const evaluate = (outputName: string) => {
    if (evaluated.has(outputName)) return;
    evaluated.add(outputName);
    const output = outputs[outputName];
    if (output === undefined) return;
    for (const imported of output.imports) if (!imported.external) evaluate(imported.path);
    for (const imported of output.imports) {
      if (imported.external && !externals.includes(imported.path)) externals.push(imported.path);
    }
    for (const [name, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0 || isPart(name)) continue;
      withCode.add(name);
      splitOrder.push(name);
    }
  };
  const entries = new Map(
    Object.entries(outputs).flatMap(([name, output]) =>
      output.entryPoint === undefined ? [] : [[output.entryPoint, name] as const],
    ),
  );
  for (const part of parts) {
    const output = entries.get(part);
    if (output === undefined) return undefined;
    evaluate(output);
  }
  const expected = bundleOrder.filter((name) => withCode.has(name));
  if (expected.length !== splitOrder.length || expected.some((name, i) => name !== splitOrder[i]))
    return undefined;
  return externals;
}

/** The module a split build is loaded by: the externals first, then each part once the one before it has finished. */
export function mainModule(externals: readonly string[], partFiles: readonly string[]): string {
  return [
    ...externals.map((e) => `import ${JSON.stringify(e)};`),
    ...partFiles.map((f) => `await import(${JSON.stringify(`./${f}`)});`),
    '',
  ].join('\n');
}
