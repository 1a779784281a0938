import type { Argv } from 'yargs';

// The options of the project commands, apart from what runs them: a command's --help loads only this.

/** Arguments that do not parse: the message says which and what was expected. */
export class UsageError extends Error {
  readonly code = 'usage';
  readonly hint: string;
  constructor(message: string, hint = 'run monitor --help') {
    super(message);
    this.hint = hint;
  }
}

/**
 * yargs rethrows what a coerce function throws as a bare `YError` that keeps only the message:
 * each usage error a coerce function throws is kept here by its message, so that the failure
 * handler reports it with its code and hint (`usageErrorOf`).
 */
const coerceErrors = new Map<string, UsageError>();

export function invalidValue(error: UsageError): never {
  coerceErrors.set(error.message, error);
  throw error;
}

/** The usage error an argument error of yargs stands for: a coerce function's own, or one made of its message. */
export function usageErrorOf(error: Error): UsageError {
  return coerceErrors.get(error.message) ?? new UsageError(error.message);
}

/** Values of a repeatable option, each of which may be comma-separated: `--tag a,b --tag c` → a, b, c. */
export function commaList(values: readonly unknown[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** A whole number ≥ `min`, or a usage error naming the option. */
export function integerAtLeast(option: string, min: number) {
  return (value: unknown): number => {
    const text = String(value).trim();
    const n = Number(text);
    if (text === '' || !Number.isInteger(n) || n < min) {
      invalidValue(
        new UsageError(
          `--${option} must be a whole number of at least ${min}, got "${String(value)}"`,
          `e.g. --${option} ${Math.max(min, 4)}`,
        ),
      );
    }
    return n;
  };
}

/** A number of seconds > 0 (fractions allowed), or a usage error naming the option. */
export function positiveSeconds(option: string) {
  return (value: unknown): number => {
    const n = Number(String(value).trim());
    if (String(value).trim() === '' || !Number.isFinite(n) || n <= 0) {
      invalidValue(
        new UsageError(
          `--${option} must be a number of seconds above 0, got "${String(value)}"`,
          `e.g. --${option} 60`,
        ),
      );
    }
    return n;
  };
}

/** What `deploy --verify` runs and fails on: the groups the deploy touched or `all`, and `strict`. */
export interface VerifyMode {
  all: boolean;
  strict: boolean;
}

const VERIFY_WORDS = ['changed', 'all', 'strict'] as const;

/** `--verify`, `--verify all`, `--verify strict`, `--verify all,strict`, or a usage error. */
export function verifyModeOf(value: unknown): VerifyMode {
  const words = commaList([value === true ? '' : value]);
  const bad = words.find((w) => !(VERIFY_WORDS as readonly string[]).includes(w));
  if (bad !== undefined) {
    invalidValue(
      new UsageError(
        `--verify takes changed, all or strict (a comma list), got "${bad}"`,
        'e.g. --verify (the groups the deploy changed), --verify all, --verify all,strict',
      ),
    );
  }
  if (words.includes('changed') && words.includes('all'))
    invalidValue(new UsageError('--verify changed,all: choose one', 'all includes the changed groups'));
  return { all: words.includes('all'), strict: words.includes('strict') };
}

/** Options of every command that works on a project against an account. */
export interface ProjectArgs {
  config?: string | undefined;
  env?: string | undefined;
  local?: boolean | undefined;
  json?: boolean | undefined;
  debug?: boolean | undefined;
  rateLimit?: string | undefined;
  timeout?: number | undefined;
}

const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** One character in bash's `$'…'`: a control character (an id from the account) as its escape. */
function shellEscape(char: string): string {
  if (char === '\\' || char === "'") return `\\${char}`;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/**
 * A command line for a hint, with the flags that chose the project and the account in this run
 * (`--config`, `--local`), so that what the hint says to run works as it is. A word with control
 * characters is written in bash's `$'…'` quoting, so that none reaches the terminal.
 */
export function commandLine(args: ProjectArgs, ...words: string[]): string {
  const quote = (w: string) => {
    if (/^[\w@%+=:,./-]+$/.test(w)) return w;
    if (CONTROL.test(w)) return `$'${w.replace(/[\\']|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, shellEscape)}'`;
    return `'${w.replace(/'/g, `'\\''`)}'`;
  };
  const flags = [
    ...(args.config === undefined ? [] : ['--config', quote(args.config)]),
    ...(args.env === undefined ? [] : ['--env', quote(args.env)]),
    ...(args.local === true ? ['--local'] : []),
  ];
  return ['monitor', ...words.map(quote), ...flags].join(' ');
}

export function withProjectOptions<T>(y: Argv<T>) {
  return y
    .option('config', {
      type: 'string',
      describe: 'Path of monitor.config.ts (default: the nearest one upwards)',
    })
    .option('env', {
      type: 'string',
      describe:
        'The environment, when the config defines them: its account, base URL and state (default $MONITOR_ENV)',
    })
    .option('local', {
      type: 'boolean',
      describe: 'Run against the embedded emulator, persisted under .monitor/local/ (no account needed)',
    })
    .option('json', {
      type: 'boolean',
      describe: 'Print one JSON envelope (formatVersion 2) on stdout, on failure too',
    })
    .option('rate-limit', {
      type: 'string',
      describe:
        "The account's rate limit as requests/seconds, shared with the runs calling it at once (default: the config's rateLimit, else 600/60)",
    })
    .option('timeout', {
      type: 'string',
      coerce: positiveSeconds('timeout'),
      describe:
        'Seconds each request may take, from sending it to the last byte of the answer (default 30 for the answer to start, 60 in all)',
    })
    .option('debug', { type: 'boolean', describe: 'Log every API request to stderr (secrets redacted)' })
    .group(['config', 'env', 'local', 'json', 'rate-limit', 'timeout', 'debug'], 'Project options:');
}

/** What a plan covers: `--target` and `--replace`, repeatable, each a logical id or `Kind:logicalId`. */
export interface ScopeArgs {
  target?: string[] | undefined;
  replace?: string[] | undefined;
}

export function withScopeOptions<T>(y: Argv<T>) {
  return y
    .option('target', {
      type: 'string',
      array: true,
      describe:
        'Plan only this construct (a logical id or Kind:logicalId), and what it needs created first; repeatable. The rest of the project is not compared',
    })
    .option('replace', {
      type: 'string',
      array: true,
      describe:
        'Delete this resource and create it again from the code (a logical id or Kind:logicalId); repeatable. Needs --allow-deletes in CI; never a protect: true one',
    });
}

/** The scope of the engine's plan from `--target` and `--replace` (comma lists allowed). */
export function scopeOf(args: ScopeArgs): { targets?: string[]; replace?: string[] } {
  const targets = commaList(args.target);
  const replace = commaList(args.replace);
  return {
    ...(targets.length === 0 ? {} : { targets }),
    ...(replace.length === 0 ? {} : { replace }),
  };
}

export interface ApplyArgs {
  yes?: boolean | undefined;
  allowDeletes?: boolean | undefined;
  forceOrphan?: boolean | undefined;
  parallelism?: number | undefined;
  lockTimeout?: number | undefined;
  json?: boolean | undefined;
}

export function withApplyOptions<T>(y: Argv<T>) {
  return y
    .option('yes', {
      alias: 'y',
      type: 'boolean',
      describe: 'Apply without asking (needed when not on a terminal, e.g. in CI)',
    })
    .option('allow-deletes', {
      type: 'boolean',
      describe: 'Allow deleting resources in a non-interactive run',
    })
    .option('force-orphan', {
      type: 'boolean',
      describe:
        "Delete or replace resources that other projects' constructs reference (X.fromProject) anyway, leaving their references unresolved; refused otherwise (exit 3). Deletes still need --allow-deletes in CI",
    })
    .option('parallelism', {
      type: 'string',
      default: '8',
      coerce: integerAtLeast('parallelism', 1),
      describe: 'Operations in flight at once (under the client rate limit)',
    })
    .option('lock-timeout', {
      type: 'string',
      default: '0',
      coerce: integerAtLeast('lock-timeout', 0),
      describe: 'Seconds to wait for another deploy or destroy to release the state lock',
    });
}

/** Options of the commands that post to a pull or merge request. */
export interface CommentArgs {
  comment?: boolean | undefined;
  issue?: boolean | undefined;
  requireComment?: boolean | undefined;
}

export function withCommentOptions<T>(y: Argv<T>, what: string, issue = false) {
  const withComment = y.option('comment', {
    type: 'boolean',
    describe: `Post ${what} to this CI run's pull request (GitHub) or merge request (GitLab), updating monitor's earlier comment in place; also to $GITHUB_STEP_SUMMARY when set. See docs/ci.md`,
  });
  const withIssue = issue
    ? withComment.option('issue', {
        type: 'boolean',
        describe:
          'For a scheduled drift check: open one issue (label monitor-drift) when the account differs from the code, update it while it does, close it when it matches again',
      })
    : withComment;
  return withIssue
    .option('require-comment', {
      type: 'boolean',
      describe: `Exit 1 when the ${issue ? 'comment or issue' : 'comment'} cannot be posted (missing token, no permission, API down); by default a warning`,
    })
    .check((args) => {
      if (args['require-comment'] === true && args.comment !== true && args.issue !== true) {
        throw new UsageError(
          `--require-comment needs --comment${issue ? ' or --issue' : ''}`,
          `add --comment${issue ? ' (or --issue)' : ''}, or drop --require-comment`,
        );
      }
      return true;
    })
    .group(['comment', ...(issue ? ['issue'] : []), 'require-comment'], 'CI options:');
}

/** The environment of a run: `--env`, else `MONITOR_ENV`; undefined when neither says one. */
export function environmentOf(
  args: { env?: string | undefined },
  env: Record<string, string | undefined>,
): string | undefined {
  const name = (args.env ?? env.MONITOR_ENV ?? '').trim();
  return name === '' ? undefined : name;
}
