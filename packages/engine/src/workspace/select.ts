import { nearest } from '@monitor/api/nearest';
import { UnknownProjectError } from './errors.js';
import type { WorkspaceProject } from './workspace.js';

/** The projects `names` name, in the workspace's order; an unknown name is an error naming the nearest. */
export function namedProjects(
  projects: readonly WorkspaceProject[],
  names: readonly string[],
): WorkspaceProject[] {
  const known = projects.map((p) => p.name);
  for (const name of names) {
    if (known.includes(name)) continue;
    const best = nearest(name, known);
    throw new UnknownProjectError(
      `the workspace has no project "${name}"${best === undefined ? '' : `; did you mean "${best}"?`}`,
      `its projects: ${known.join(', ')} (monitor projects lists them)`,
    );
  }
  return projects.filter((p) => names.includes(p.name));
}
