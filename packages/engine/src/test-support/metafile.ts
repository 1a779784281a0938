import type { Metafile } from 'esbuild';

/** A metafile of parts importing files, files importing modules (`!name` is external), and outputs. */
export function metafile(
  graph: Record<string, string[]>,
  outputs: Record<string, { entry?: string; imports?: string[]; inputs: string[] }>,
): Metafile {
  return {
    inputs: Object.fromEntries(
      Object.entries(graph).map(([name, imports]) => [
        name,
        {
          bytes: 1,
          imports: imports.map((i) =>
            i.startsWith('!')
              ? { path: i.slice(1), kind: 'import-statement' as const, external: true }
              : { path: i, kind: 'import-statement' as const },
          ),
        },
      ]),
    ),
    outputs: Object.fromEntries(
      Object.entries(outputs).map(([name, o]) => [
        name,
        {
          bytes: 1,
          imports: (o.imports ?? []).map((i) =>
            i.startsWith('!')
              ? { path: i.slice(1), kind: 'import-statement' as const, external: true }
              : { path: i, kind: 'import-statement' as const },
          ),
          exports: [],
          ...(o.entry === undefined ? {} : { entryPoint: o.entry }),
          inputs: Object.fromEntries(o.inputs.map((i) => [i, { bytesInOutput: 1 }])),
        },
      ]),
    ),
  };
}
