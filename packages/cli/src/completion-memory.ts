import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What shell completion offers without loading the project or asking the API: the constructs of
 * the project's last load, and the check sessions started from it lately. Kept in the project's
 * `.monitor/cache/completion.json` (git-ignored, as the whole cache is); a cache, so every failure
 * to read or write it is no completion, never an error.
 */
export interface CompletionMemory {
  /** `Kind:logicalId` of every construct the last load of the project declared, sorted. */
  constructs: string[];
  /** Sessions started from here, newest first: their id, the check's name, when. */
  sessions: { id: string; name: string; at: string }[];
}

/** Sessions remembered: the last few runs' worth. */
const MAX_SESSIONS = 50;

const fileOf = (projectDir: string) => join(projectDir, '.monitor', 'cache', 'completion.json');

export function readCompletionMemory(projectDir: string): CompletionMemory {
  try {
    const parsed = JSON.parse(readFileSync(fileOf(projectDir), 'utf8')) as Partial<CompletionMemory>;
    return {
      constructs: Array.isArray(parsed.constructs)
        ? parsed.constructs.filter((c) => typeof c === 'string')
        : [],
      sessions: Array.isArray(parsed.sessions)
        ? parsed.sessions.filter((s) => typeof s?.id === 'string' && typeof s.name === 'string')
        : [],
    };
  } catch {
    return { constructs: [], sessions: [] };
  }
}

function write(projectDir: string, memory: CompletionMemory): void {
  const file = fileOf(projectDir);
  try {
    // The cache directory is made (git-ignored) by the project's load.
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(memory)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // A cache: completion goes without.
  }
}

/** Remember the constructs a load found; written only when they differ from what is kept. */
export function rememberConstructs(
  projectDir: string,
  resources: readonly { kind: string; logicalId: string }[],
): void {
  const constructs = [...new Set(resources.map((r) => `${r.kind}:${r.logicalId}`))].sort();
  const memory = readCompletionMemory(projectDir);
  // Compared entry by entry: joined, the two lists are strings of megabytes at 50,000 constructs.
  const kept = memory.constructs;
  if (kept.length === constructs.length && kept.every((c, i) => c === constructs[i])) return;
  write(projectDir, { ...memory, constructs });
}

/** Remember sessions just started, newest first, the oldest forgotten past MAX_SESSIONS. */
export function rememberSessions(
  projectDir: string,
  sessions: readonly { id: string; name: string }[],
  now: Date,
): void {
  if (sessions.length === 0) return;
  const memory = readCompletionMemory(projectDir);
  const at = now.toISOString();
  const fresh = sessions.map((s) => ({ id: s.id, name: s.name, at }));
  const ids = new Set(fresh.map((s) => s.id));
  write(projectDir, {
    ...memory,
    sessions: [...fresh, ...memory.sessions.filter((s) => !ids.has(s.id))].slice(0, MAX_SESSIONS),
  });
}

/** Options and positionals whose values are a project's logical ids. */
const ID_OPTIONS = new Set(['--target', '--replace']);
const ID_POSITIONALS = new Set(['routes', 'output']);

/**
 * The words to offer for the last of `words` (the command line after `monitor`, the word being
 * completed last), when it is an id: a logical id for `--target`, `--replace`, `routes` and
 * `output` (with its kind where two kinds share it), a session id for `sessions get|wait`.
 * Undefined where it is not an id: yargs' own completions apply.
 */
export function idCompletions(
  words: readonly string[],
  memory: () => CompletionMemory,
): string[] | undefined {
  const current = words.at(-1) ?? '';
  const previous = words.at(-2);
  if (current.startsWith('-')) return undefined;
  const command = words.find((w) => !w.startsWith('-'));
  const positional = command !== undefined && ID_POSITIONALS.has(command) && words.length >= 2;
  if ((previous !== undefined && ID_OPTIONS.has(previous)) || (positional && !isOptionValue(words))) {
    return logicalIds(memory().constructs);
  }
  const verb = words.filter((w) => !w.startsWith('-'))[1];
  if (
    command === 'sessions' &&
    (verb === 'get' || verb === 'wait') &&
    words.length >= 3 &&
    !isOptionValue(words)
  ) {
    return memory().sessions.map((s) => s.id);
  }
  return undefined;
}

/** Whether the word being completed is the value of an option (`--env <TAB>`), not a positional. */
function isOptionValue(words: readonly string[]): boolean {
  const previous = words.at(-2);
  return (
    previous !== undefined && previous.startsWith('--') && !previous.includes('=') && !BOOLEAN.has(previous)
  );
}

/** Options of the id-taking commands that take no value: a word after them is a positional. */
const BOOLEAN = new Set(['--json', '--local', '--debug', '--all', '--test', '--verbose']);

/** Each logical id once; `Kind:logicalId` for one that two kinds share. */
function logicalIds(constructs: readonly string[]): string[] {
  const byId = new Map<string, string[]>();
  for (const key of constructs) {
    const id = key.slice(key.indexOf(':') + 1);
    byId.set(id, [...(byId.get(id) ?? []), key]);
  }
  return [...byId.entries()].flatMap(([id, keys]) => (keys.length === 1 ? [id] : keys)).sort();
}
