import type { DesiredResource } from '@monitor/constructs';

/**
 * A reference to a construct another project owns, as synthesis writes it into a payload
 * (`AlertChannel.fromProject('platform', 'pagerduty-oncall')`): resolved at plan time from that
 * project's state.
 */
export interface ProjectRef {
  $project: string;
  /** `Kind:logicalId` in the other project. */
  $ref: string;
}

export function isProjectRef(value: unknown): value is ProjectRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ProjectRef).$project === 'string' &&
    typeof (value as ProjectRef).$ref === 'string' &&
    Object.keys(value).length === 2
  );
}

/** The other projects whose constructs `resources` reference, sorted. */
export function referencedProjects(resources: readonly DesiredResource[]): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (isProjectRef(value)) {
      found.add(value.$project);
      return;
    }
    if (Array.isArray(value)) for (const item of value) walk(item);
    else for (const key in value) walk((value as Record<string, unknown>)[key]);
  };
  for (const resource of resources) walk(resource.payload);
  return [...found].sort();
}
