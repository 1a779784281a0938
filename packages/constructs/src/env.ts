import { callerLocation, captureCallSites, currentSession, type SourceLocation } from './session.js';

/** An environment variable `requiredEnv` found unset, and where it was asked for. */
export interface MissingEnv {
  readonly name: string;
  readonly location: SourceLocation | undefined;
}

const MISSING_KEY = Symbol.for('@monitor/constructs.missingEnv');

/** What `requiredEnv` gives for an unset variable: synthesis reports it at the prop that holds it. */
const UNSET_PREFIX = '\ufdd0monitor:unset-env:';

const UNSET = /\ufdd0monitor:unset-env:([^\ufdd1]+)\ufdd1/;

/** The variable an unset `requiredEnv` stands for, when `value` holds what it returned (in a template too). */
export function unsetEnvName(value: unknown): string | undefined {
  return typeof value === 'string' ? UNSET.exec(value)?.[1] : undefined;
}

/** The variables `requiredEnv` found unset while the open session loaded. */
export function missingEnv(session = currentSession()): readonly MissingEnv[] {
  return (session as { [MISSING_KEY]?: MissingEnv[] })[MISSING_KEY] ?? [];
}

/**
 * The value of an environment variable the project cannot do without, typically a credential
 * kept out of the code: `serviceKey: requiredEnv('PAGERDUTY_SERVICE_KEY')`. When it is unset (or
 * empty), the project is invalid: an error names the variable and the prop that needed it, and
 * nothing is sent (rather than an empty credential).
 */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value !== undefined && value !== '') return value;
  const session = currentSession() as { [MISSING_KEY]?: MissingEnv[] };
  const missing = session[MISSING_KEY] ?? [];
  session[MISSING_KEY] = missing;
  if (!missing.some((m) => m.name === name)) {
    const location = callerLocation(captureCallSites(requiredEnv));
    missing.push({ name, location: location === undefined ? undefined : { ...location, callers: [] } });
  }
  return `${UNSET_PREFIX}${name}\ufdd1`;
}
