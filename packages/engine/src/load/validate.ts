import { KINDS, messageRedactor } from '@monitor/api/definitions';
import type { DesiredResource, Diagnostic } from '@monitor/constructs';
import { ProjectLoadError } from '../errors.js';
import { routingTestFindings } from '../routing-tests/findings.js';
import { judgeAgainstCode } from '../routing-tests/judge.js';
import { type LoadedProject, type LoadOptions, load } from './load.js';

export interface ValidationReport {
  /** True when there is no error (warnings allowed), in the diagnostics or the policy findings. */
  valid: boolean;
  /** The loaded project; undefined when it could not be loaded at all. */
  project: LoadedProject | undefined;
  /** The config file, when one was found. */
  configPath: string | undefined;
  /** Problems of the project itself: what stops it from being planned at all. */
  diagnostics: Diagnostic[];
  /**
   * What the construct rules of its policies found, and the routing tests that fail against the
   * code: a plan is still made, a deploy refuses an error.
   */
  findings: Diagnostic[];
}

/**
 * Load and validate a project. Problems in the project (syntax errors, missing packages, files
 * that throw, a bad config, invalid constructs) come back as diagnostics; anything else throws.
 */
export async function validateProject(options: LoadOptions = {}): Promise<ValidationReport> {
  try {
    const project = await load(options);
    const environment = project.config.environment;
    if (environment !== undefined && project.config.environments.length > 1) {
      project.diagnostics.push(...(await clashesWithOtherEnvironments(project, environment, options)));
    }
    // Judged against the code: diff and deploy judge them again against the account.
    const routed = routingTestFindings(
      judgeAgainstCode(project.config.routingTests, project.resources, new Date()),
    );
    const findings = routed.length === 0 ? project.findings : [...project.findings, ...routed];
    return {
      valid: [...project.diagnostics, ...findings].every((d) => d.severity !== 'error'),
      project,
      configPath: project.configPath,
      diagnostics: project.diagnostics,
      findings,
    };
  } catch (e) {
    if (e instanceof ProjectLoadError) {
      const { hint } = e;
      const diagnostics =
        hint === undefined
          ? e.diagnostics
          : e.diagnostics.map((d) => (d.hint === undefined ? { ...d, hint } : d));
      return { valid: false, project: undefined, configPath: e.configPath, diagnostics, findings: [] };
    }
    throw e;
  }
}

/**
 * Unique keys the service keeps unique across every account (a status page's url, a dashboard's
 * customUrl): one value in two environments means the second deploy fails with a 409. Each
 * other environment is loaded (one that does not load is skipped: validating it says why).
 */
async function clashesWithOtherEnvironments(
  project: LoadedProject,
  environment: string,
  options: LoadOptions,
): Promise<Diagnostic[]> {
  const others: { environment: string; resources: DesiredResource[] }[] = [];
  const { onConfig: _ownEnvironmentOnly, ...otherOptions } = options;
  for (const other of project.config.environments) {
    if (other === environment) continue;
    try {
      others.push({
        environment: other,
        resources: (await load({ ...otherOptions, environment: other })).resources,
      });
    } catch (e) {
      if (!(e instanceof ProjectLoadError)) throw e;
    }
  }
  return environmentClashes({ environment, resources: project.resources }, others);
}

/** The resources of `current` whose cross-account unique keys have the same value in another environment. */
export function environmentClashes(
  current: { environment: string; resources: DesiredResource[] },
  others: { environment: string; resources: DesiredResource[] }[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const value = (r: DesiredResource, key: string) => {
    const v = r.payload[key];
    return typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined;
  };
  for (const resource of current.resources) {
    for (const key of KINDS[resource.kind].uniqueKeys) {
      const mine = value(resource, key);
      if (mine === undefined) continue;
      const same = others.filter((o) =>
        o.resources.some((r) => r.kind === resource.kind && value(r, key) === mine),
      );
      if (same.length === 0) continue;
      const where = same.map((o) => o.environment).join(', ');
      out.push({
        severity: 'error',
        construct: resource.construct,
        logicalId: resource.logicalId,
        path: key,
        message: messageRedactor(
          KINDS[resource.kind],
          resource.payload,
        )(
          `${key} "${String(resource.payload[key])}" is the same in environment${same.length === 1 ? '' : 's'} ${where}: the service keeps it unique across all accounts, so deploying both fails with a conflict`,
        ),
        hint: 'make it differ per environment, e.g. with the name from currentEnvironment() (@monitor/constructs) in it',
        ...(resource.location === undefined ? {} : { location: resource.location }),
      });
    }
  }
  return out;
}
