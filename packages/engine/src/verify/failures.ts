import type { CheckSession, Client } from '@monitor/api';
import type { Failure } from './report.js';

/** A failure as read, with the error groups its result names (`error-groups.ts` resolves them). */
export type FailureRead = Failure & { errorGroupIds?: string[] };

/** The result of a session that fails: a final one (or one of a service that does not say) that failed, errored or degraded. */
export function isFailedResult(result: CheckSession['results'][number]): boolean {
  if (!(result.hasFailures || result.hasErrors || result.isDegraded)) return false;
  return result.resultType === undefined || result.resultType === 'FINAL';
}

/** One failed result: its location, and the assertion or error, read in detail while the budget lasts. */
export async function failureOf(
  client: Client,
  checkId: string,
  result: CheckSession['results'][number],
  details: { left: number },
): Promise<FailureRead> {
  const base = {
    location: result.runLocation,
    resultId: result.checkResultId,
    ...(result.checkResultLink === undefined ? {} : { link: result.checkResultLink }),
  };
  const fallback =
    result.isDegraded && !result.hasFailures ? 'degraded' : result.hasErrors ? 'error' : 'failed';
  if (details.left <= 0) return { ...base, error: fallback };
  details.left--;
  const full = (await client.checkResults.get(checkId, result.checkResultId).catch(() => undefined)) as
    | Record<string, unknown>
    | undefined;
  const error = full === undefined ? fallback : (errorOf(full) ?? fallback);
  const errorGroupIds = Array.isArray(full?.errorGroupIds) ? (full.errorGroupIds as string[]) : [];
  return { ...base, error, errorGroupIds };
}

/** The error a result reports: a request error, a failed assertion, or the first error of a script. */
export function errorOf(result: Record<string, unknown>): string | undefined {
  const api = result.apiCheckResult as Record<string, unknown> | null | undefined;
  if (api !== null && api !== undefined) {
    if (typeof api.requestError === 'string' && api.requestError !== '') return api.requestError;
    const failed = (Array.isArray(api.assertions) ? api.assertions : []).find(
      (a) => (a as { passed?: unknown }).passed === false,
    ) as Record<string, unknown> | undefined;
    if (failed !== undefined) {
      return `assertion ${String(failed.source ?? '')} ${String(failed.comparison ?? '')} ${String(failed.target ?? '')} failed${failed.actual === undefined ? '' : `, got ${JSON.stringify(failed.actual)}`}`.replace(
        / +/g,
        ' ',
      );
    }
  }
  for (const field of ['browserCheckResult', 'multiStepCheckResult', 'playwrightCheckResult']) {
    const script = result[field] as { errors?: unknown[] } | null | undefined;
    const first = script?.errors?.[0];
    if (first !== undefined) return typeof first === 'string' ? first : JSON.stringify(first);
  }
  return undefined;
}
