import { nearest } from '@monitor/api/definitions';
import type { PolicyException } from './policy.js';

/**
 * Options every construct takes beside its props, as `new`'s third argument:
 * `new CheckGroup('api', { name: 'API' }, { protect: true, ignoreChanges: ['muted'] })`.
 */
export interface ConstructOptions {
  /**
   * Never delete this resource, even when it is removed from code.
   * @default false
   */
  protect?: boolean;
  /**
   * Logical ids this construct had before a rename. Its state entry moves to the new id and the
   * resource keeps its physical id: no delete, no create.
   * @default []
   */
  aliases?: string[];
  /**
   * Take over a resource that already exists in the account with this construct's natural key
   * (its name, or a status page's `url`) and that no project owns. Without it, such a resource is a
   * conflict and deploy refuses: monitor never takes what it did not create unless told to. Once
   * adopted the resource is owned, and the option no longer matters.
   * @default false
   */
  adopt?: boolean;
  /**
   * Fields that people own in the service's UI: deploy sends them when it creates the resource,
   * and never again; a change there is not drift. Paths as the plan prints them:
   * `['muted', 'alertSettings.reminders', 'environmentVariables[API_URL].value']`.
   * @default []
   */
  ignoreChanges?: string[];
  /**
   * Policy findings this construct is excused from, each with the reason: `[{ policy:
   * 'group-without-alert-channel', reason: 'a canary: its failures are read on the dashboard' }]`.
   * A waived finding never blocks a deploy, and is still listed, as waived, with the reason. See
   * docs/policies.md.
   * @default []
   */
  policyExceptions?: PolicyException[];
}

/** The options of a construct as synthesis reads them. */
export interface ResolvedOptions {
  protect: boolean;
  aliases: string[];
  adopt: boolean;
  ignoreChanges: string[];
  policyExceptions: PolicyException[];
}

/** Every option's name. No kind's request schema has a field of these names, so none is a prop. */
export const OPTION_NAMES: readonly (keyof ConstructOptions)[] = [
  'protect',
  'aliases',
  'adopt',
  'ignoreChanges',
  'policyExceptions',
];

/** What a construct's options argument says, defaulted; what it holds beyond the options, apart. */
export function resolveOptions(options: ConstructOptions | null | undefined): {
  resolved: ResolvedOptions;
  unknown: string[];
} {
  const given = (options ?? {}) as ConstructOptions;
  return {
    resolved: {
      protect: given.protect === true,
      aliases: given.aliases ?? [],
      adopt: given.adopt === true,
      // Checked in synthesis, where problems are reported at the construct.
      ignoreChanges: given.ignoreChanges ?? [],
      policyExceptions: given.policyExceptions ?? [],
    },
    unknown: Object.keys(given).filter((key) => !(OPTION_NAMES as readonly string[]).includes(key)),
  };
}

const NO_OPTIONS: Partial<ConstructOptions> = Object.freeze({});

/**
 * The props without any option written among them (where options were before they became the third
 * argument), and those options apart: synthesis reports each, and none is taken. The props are a
 * copy, as they always were, so that a change to the object passed after `new` changes nothing.
 */
export function withoutOptions<P extends object>(
  props: P,
): { props: P; misplaced: Partial<ConstructOptions> } {
  const {
    protect: _protect,
    aliases: _aliases,
    adopt: _adopt,
    ignoreChanges: _ignoreChanges,
    policyExceptions: _policyExceptions,
    ...rest
  } = (props ?? {}) as P & ConstructOptions;
  let misplaced: Record<string, unknown> | undefined;
  for (const name of OPTION_NAMES) {
    if (props === null || props === undefined || !Object.hasOwn(props, name)) continue;
    misplaced ??= {};
    misplaced[name] = (props as Record<string, unknown>)[name];
  }
  return { props: rest as P, misplaced: misplaced ?? NO_OPTIONS };
}

/** A problem of the options, at the path users wrote: in the props, or in the options (`pathIn`). */
export interface OptionProblem {
  path: string;
  pathIn?: 'options';
  message: string;
  hint?: string;
}

const NO_PROBLEMS: readonly OptionProblem[] = Object.freeze([]);

/** What is wrong with where a construct's options are written: options among the props, unknown options. */
export function optionProblems(
  construct: string,
  logicalId: string,
  misplaced: Partial<ConstructOptions>,
  unknown: readonly string[],
): readonly OptionProblem[] {
  if (unknown.length === 0 && misplaced === NO_OPTIONS) return NO_PROBLEMS;
  return [...misplacedOptionProblems(construct, logicalId, misplaced), ...unknownOptionProblems(unknown)];
}

/**
 * One problem for each option written in the props, at it: it says where the option moved, and the
 * hint is the third argument to write, with every option found there.
 */
function misplacedOptionProblems(
  construct: string,
  logicalId: string,
  misplaced: Partial<ConstructOptions>,
): OptionProblem[] {
  const names = Object.keys(misplaced);
  if (names.length === 0) return [];
  const moved = names.map((name) => `${name}: ${sourceText((misplaced as Record<string, unknown>)[name])}`);
  const hint = `move it to the third argument: new ${construct}(${sourceText(logicalId)}, { … }, { ${moved.join(', ')} })`;
  return names.map((name) => ({
    path: name,
    message: `${name} is an option of the construct, not a prop: options are the third argument of new`,
    hint,
  }));
}

/** A problem for each key of the options argument that is no option, with the nearest option. */
function unknownOptionProblems(unknown: readonly string[]): OptionProblem[] {
  const all = `protect, aliases, adopt, ignoreChanges and policyExceptions (props go in the second argument)`;
  return unknown.map((key) => {
    const near = nearest(key, OPTION_NAMES);
    return {
      path: key,
      pathIn: 'options' as const,
      message:
        near === undefined
          ? `unknown option "${key}": the options are ${all}`
          : `unknown option "${key}"; did you mean "${near}"? The options are ${all}`,
    };
  });
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A value as TypeScript source, for a hint to copy: `['muted']`, `{ policy: 'x', reason: 'y' }`. */
function sourceText(value: unknown): string {
  if (typeof value === 'string')
    return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(sourceText).join(', ')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${IDENTIFIER.test(k) ? k : sourceText(k)}: ${sourceText(v)}`,
    );
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  // A value that has no literal (a function, an instance, undefined): what was written is kept.
  return '…';
}
