// docs/cli.md, generated from the yargs definitions (the help of every command and verb, as
// `monitor … --help` prints it at 100 columns), and docs/constructs-reference.md, from the TSDoc of
// @monitor/constructs. `npm run docs` writes it; the test in
// test/docs.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { cliReference, constructReference } from '../dist/index.js';

for (const [file, text] of [
  ['cli.md', await cliReference()],
  ['constructs-reference.md', constructReference()],
]) {
  const target = new URL(`../../../docs/${file}`, import.meta.url);
  writeFileSync(target, text);
  console.log(`wrote ${target.pathname}`);
}
