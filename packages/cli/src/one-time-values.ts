import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { writeFileAtomic } from '@monitor/api';
import type { OneTimeValue } from '@monitor/engine';
import type { Io } from './io.js';
import type { RunContext } from './output.js';

/**
 * Values the service shows only in the answer of the write that made them (a private dashboard's
 * key). As Terraform does with sensitive outputs: shown to the person once, on a terminal; written
 * to a file only the user can read, whose path is printed (CI passes it on as a secret); never in
 * a log, `--json`, a comment or state.
 */

/**
 * Where they go when `--secrets-out` is not given: `.monitor/secrets/`, with a `.gitignore` of its
 * own that ignores everything in it, so that no `git add` commits them, whatever the project ignores.
 */
export function defaultSecretsFile(projectDir: string, now: Date): string {
  const dir = join(projectDir, '.monitor', 'secrets');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# Values the service showed once: never committed.\n*\n');
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return join(dir, `deploy-${stamp}.json`);
}

/**
 * Merge `values` into the JSON file at `path` (`{ "Dashboard:ops": { "keys[0].rawKey": "…" } }`),
 * made with mode 0600. Values written earlier to the same file are kept.
 */
export function writeSecretsFile(path: string, values: readonly OneTimeValue[]): void {
  let existing: Record<string, Record<string, string>> = {};
  try {
    existing = JSON.parse(readFileSync(path, 'utf8')) as typeof existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw Object.assign(
        new Error(`cannot add to ${path}: it is not a JSON file of monitor's (${(e as Error).message})`),
        {
          code: 'secrets_file',
          hint: 'name a new file with --secrets-out; the values were not printed anywhere else',
        },
      );
    }
  }
  for (const v of values) existing[v.key] = { ...existing[v.key], [v.path]: v.value };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, `${JSON.stringify(existing, null, 2)}\n`, undefined, 0o600);
}

/**
 * Hand the one-time values of a deploy to the person: write them to the file (always), show them
 * on a terminal, and say where they are. What goes in `--json` names them and the file, never
 * the values.
 */
export function handOver(
  values: readonly OneTimeValue[],
  { io, out }: RunContext,
  options: { file?: string | undefined; projectDir: string; now?: Date },
): { key: string; path: string; file: string }[] {
  if (values.length === 0) return [];
  const file = resolve(
    io.cwd,
    options.file ?? defaultSecretsFile(options.projectDir, options.now ?? new Date()),
  );
  writeSecretsFile(file, values);
  const shown = relative(io.cwd, file) || file;
  if (!out.json) {
    const n = values.length;
    io.stderr(
      `\n${n} value${n === 1 ? '' : 's'} the service shows only once (a private dashboard's key) ${n === 1 ? 'was' : 'were'} written to ${shown}, readable only by you. ${n === 1 ? 'It is' : 'They are'} in no log, --json output or state: keep ${n === 1 ? 'it' : 'them'} somewhere safe.\n`,
    );
    if (io.interactive) showOnce(values, io);
  }
  return values.map((v) => ({ key: v.key, path: v.path, file: shown }));
}

/** On a terminal, the values themselves, once. */
function showOnce(values: readonly OneTimeValue[], io: Io): void {
  for (const v of values) io.stderr(`  ${v.key} ${v.path}: ${v.value}\n`);
}
