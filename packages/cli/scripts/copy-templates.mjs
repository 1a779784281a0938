// The CI workflows of examples/ci ship with the CLI for `monitor init --ci`: examples/ci stays the
// one copy in the repository (tested as shipped), dist/templates/ci is what the package carries.
import { cpSync, rmSync } from 'node:fs';

const from = new URL('../../../examples/ci/', import.meta.url);
const to = new URL('../dist/templates/ci/', import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
