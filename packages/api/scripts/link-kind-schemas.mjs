#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
// Usage: node scripts/link-kind-schemas.mjs   (in packages/api, after tsc, before bundling)
//
// Rewrites tsc's dist/kinds/schemas-link.js, which imports the kinds' schemas (and zod) and
// derives their defaults and field paths when it loads, into a module that holds those facts as a
// literal and loads the schemas on first use: `require('./kind-schemas.js')`, from the bundled
// chunk beside that entry (Node ≥ 20.19 loads an ES module synchronously so, the instance an
// `import` of it gets). A run that only reads defaults and kind definitions (a warm
// `monitor validate`: its payloads passed their schemas before) then loads neither zod nor a
// schema: ~40 ms of its ~290.
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

const require = createRequire(import.meta.url);
let schemas;

export const kindSchemas = () => (schemas ??= require('./kind-schemas.js').KIND_SCHEMAS);

export const KIND_FACTS = ${json};
`,
);
