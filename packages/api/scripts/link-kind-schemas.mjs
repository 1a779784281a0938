#!/usr/bin/env node
// Usage: node scripts/link-kind-schemas.mjs   (in packages/api, after tsc, before bundling)
//
// Rewrites tsc's dist/kinds/schemas-link.js, which imports the kinds' schemas (and zod) and
// derives their defaults and field paths when it loads, into a module that holds those facts as a
// literal and takes the schemas from the registry kind-schemas.js fills as it loads, else loads them
// on first use with `require('./kind-schemas.js')`, from the bundled chunk beside that entry (Node
// ≥ 20.19 and ≥ 22.12 load an ES module synchronously so, the instance an `import` of it gets). A
// run that only reads defaults and kind definitions (a warm `monitor validate`: its payloads
// passed their schemas before) then loads neither zod nor a schema: ~40 ms of its ~290.

import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const link = fileURLToPath(new URL('../dist/kinds/schemas-link.js', import.meta.url));
const { KIND_FACTS } = await import(pathToFileURL(link).href);

// The facts become a literal: only what JSON keeps the same (no undefined, no functions…).
const json = JSON.stringify(KIND_FACTS);
if (!isDeepStrictEqual(JSON.parse(json), KIND_FACTS)) {
  throw new Error(
    'the kinds’ facts (defaults, field paths) are not plain JSON: schemas-link.js cannot hold them as a literal',
  );
}

writeFileSync(
  link,
  `// Written by scripts/link-kind-schemas.mjs from src/kinds/schemas-link.ts: the same exports.
import { createRequire } from 'node:module';
import { registeredKindSchemas } from './schema-registry.js';

const require = createRequire(import.meta.url);

/** The schemas: registered once their module ran, else loaded now (it registers them). */
export const kindSchemas = () => {
  const registered = registeredKindSchemas();
  if (registered !== undefined) return registered;
  try {
    // Relative to the bundled chunk this code ends up in, beside the kind-schemas.js entry.
    return require('./kind-schemas.js').KIND_SCHEMAS;
  } catch (e) {
    if (e?.code !== 'ERR_REQUIRE_ESM') throw e;
    throw new Error(
      \`monitor's schemas could not be loaded: Node \${process.version} cannot require an ES module (Node 20.19+, 22.12+ or 23+ can); await kindSchemasReady() from @monitor/api/definitions first, or use a newer Node\`,
    );
  }
};

export const KIND_FACTS = ${json};
`,
);
