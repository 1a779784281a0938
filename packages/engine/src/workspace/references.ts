import { type DesiredResource, isProjectPayloadRef, type ProjectPayloadRef } from '@monitor/constructs';

/**
 * A reference to a construct another project owns, as synthesis writes it into a payload
 * (`AlertChannel.fromProject('platform', 'pagerduty-oncall')`): resolved at plan time from that
 * project's state. One definition, the constructs' own.
 */
export type ProjectRef = ProjectPayloadRef;

export const isProjectRef: (value: unknown) => value is ProjectRef = isProjectPayloadRef;

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
