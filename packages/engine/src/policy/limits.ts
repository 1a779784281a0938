import { createContext, Script } from 'node:vm';
import { describeSensitive, KINDS, Redactor, type ResourceKind } from '@monitor/api/definitions';
import type { DesiredResource, PolicyResource } from '@monitor/constructs';
import type { Live } from '../plan/types.js';
import { PolicyStoppedError } from './errors.js';

/**
 * What a policy may cost and say. Policy packs come from npm: their code is not ours, so what it
 * returns or throws is cut to size and cleaned of secrets, and the stage that runs it is stopped
 * when it takes too long (a `for (;;) {}` hung every command, and Ctrl-C left without a word).
 */

/** How long the policies of one stage (construct rules, or plan rules) may run. @default 30 s */
export const DEFAULT_POLICY_TIME_LIMIT_MS = 30_000;

/** The longest message, hint or detail a finding keeps. */
export const FINDING_TEXT_LIMIT = 2_000;

/** `text` cut to `FINDING_TEXT_LIMIT` characters, saying so. */
export function capped(text: string, limit = FINDING_TEXT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} (cut: ${text.length} characters in all)`;
}

/**
 * Every secret of the project's constructs and of the account, removed from whatever a policy
 * says: made on the first text, since most runs have nothing to clean. The views a policy sees
 * hold none; this catches what it found elsewhere (the environment, a file).
 */
export function secretScrubber(
  resources: readonly DesiredResource[],
  live: Live | undefined,
): (text: string) => string {
  let redactor: Redactor | undefined;
  return (text) => {
    if (redactor === undefined) {
      redactor = new Redactor(describeSensitive);
      for (const r of resources) redactor.collectFrom(r.payload, KINDS[r.kind]);
      // And what the run itself holds: a rule can read the environment.
      for (const name of ['MONITOR_API_KEY', 'MONITOR_STATE_SECRET']) redactor.add(process.env[name]);
      for (const name of ['MONITOR_STATE_URL', 'MONITOR_BASE_URL'])
        redactor.add(urlPassword(process.env[name]));
      for (const [kind, items] of Object.entries(live ?? {}) as [ResourceKind, Live[ResourceKind]][]) {
        redactor.collectFrom(items, KINDS[kind]);
      }
    }
    return redactor.redact(text);
  };
}

/** The password a URL carries, if it does. */
function urlPassword(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}

/** Which policy is running, and on what (undefined: the plan): said when the stage is stopped. */
export interface Running {
  policy: string | undefined;
  subject: PolicyResource | undefined;
}

const RUN = new Script('work()', { filename: 'monitor-policies' });

/**
 * Run a stage of policies (`work`) so that it can be stopped: through `node:vm` with a timeout,
 * which ends any JavaScript running on the thread when it expires, the policies' own included,
 * and with Ctrl-C, which ends it the same way. One watchdog for the whole stage: per call it
 * would cost ~50 µs a rule and construct. Past `timeLimitMs`, undefined is returned and
 * `onTimeout` says what was running; Ctrl-C is a `PolicyStoppedError` naming it.
 */
function runStopping<T>(
  work: () => T,
  timeLimitMs: number,
  running: Running,
  onTimeout: (seconds: number) => void,
): T | undefined {
  try {
    return RUN.runInContext(createContext({ work }), {
      timeout: timeLimitMs,
      breakOnSigint: true,
    }) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      onTimeout(timeLimitMs / 1000);
      return undefined;
    }
    if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') {
      throw new PolicyStoppedError(
        `interrupted while ${describeRunning(running)}: nothing was changed`,
        'if a policy hangs, fix it or turn it off with policySeverity; policyTimeoutSeconds in monitor.config.ts bounds them',
      );
    }
    throw error;
  }
}

/**
 * Run the rules of a stage (`work`): through `runStopping` when one of `rules` is not monitor's own
 * (the project's, a pack's); monitor's built-ins alone run as the rest of monitor does. They return
 * at once, and the watchdog's context and thread cost more than they do: a fifth of the construct
 * rules' time in a warm validate. Ctrl-C then stops the run as it does any other of monitor's steps.
 */
export function runStage<T>(
  work: () => T,
  rules: readonly { builtIn: boolean }[],
  timeLimitMs: number,
  running: Running,
  onTimeout: (seconds: number) => void,
): T | undefined {
  if (rules.every((rule) => rule.builtIn)) return work();
  return runStopping(work, timeLimitMs, running, onTimeout);
}

/** `policy "x" was checking CheckGroup "api"`, or what little is known. */
export function describeRunning(running: Running): string {
  if (running.policy === undefined) return 'the policies ran';
  const on = running.subject === undefined ? 'the plan' : describeSubject(running.subject);
  return `policy "${running.policy}" was checking ${on}`;
}

/** `CheckGroup "api"`: a construct as the policies' errors name it. */
export function describeSubject(subject: PolicyResource): string {
  return `${subject.construct} "${subject.logicalId}"`;
}
