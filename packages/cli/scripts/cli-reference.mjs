// docs/cli.md, generated from the yargs definitions: the help of every command and verb, as
// `monitor … --help` prints it at 100 columns. `npm run docs` writes it; the test in
// test/docs.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { cliReference } from '../dist/reference.js';

const target = new URL('../../../docs/cli.md', import.meta.url);
writeFileSync(target, await cliReference());
console.log(`wrote ${target.pathname}`);
