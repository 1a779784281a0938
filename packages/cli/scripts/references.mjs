// docs/cli.md, generated from the yargs definitions (the help of every command and verb, as
// `monitor … --help` prints it at 100 columns), docs/constructs-reference.md, from the TSDoc of
// @monitor/constructs, and the workflows of examples/ci (a workspace's in examples/ci/workspace), from
// the generator `monitor init --ci`
// writes them with (with PostgreSQL state, deploying from main). `npm run docs` writes them; the
// tests in test/docs.test.ts and test/ci-examples.test.ts fail when a committed file is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ciFiles, cliReference, constructReference, workspaceCiFiles } from '../dist/index.js';

const written = [
  ['docs/cli.md', await cliReference()],
  ['docs/constructs-reference.md', constructReference()],
  ...ciFiles('github', { state: 'postgres', branch: 'main', projectDir: '.' }).map((f) => [
    `examples/ci/github/${basename(f.path)}`,
    f.text,
  ]),
  ...ciFiles('gitlab', { state: 'postgres', branch: 'main', projectDir: '.' }).map((f) => [
    `examples/ci/gitlab/${f.path}`,
    f.text,
  ]),
  // A workspace of projects (examples/workspace) with PostgreSQL state: its matrix and summary.
  ...workspaceCiFiles('github', { state: 'postgres', branch: 'main', projectDir: '.' }).map((f) => [
    `examples/ci/workspace/github/${basename(f.path)}`,
    f.text,
  ]),
  ...workspaceCiFiles('gitlab', { state: 'postgres', branch: 'main', projectDir: '.' }).map((f) => [
    `examples/ci/workspace/gitlab/${f.path}`,
    f.text,
  ]),
];
for (const [file, text] of written) {
  const target = new URL(`../../../${file}`, import.meta.url);
  mkdirSync(dirname(target.pathname), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${target.pathname}`);
}
