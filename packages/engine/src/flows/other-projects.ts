import { referencedProjectNames } from '../plan/project-refs.js';
import { referencedBy } from '../plan/referenced.js';
import type { Plan, PlanOptions } from '../plan/types.js';
import type { State } from '../state/state.js';
import type { Target } from './target.js';

/** What a plan takes from the other projects of the account (`PlanOptions`). */
export type ProjectsInput = Pick<PlanOptions, 'projectStates' | 'referencedBy' | 'forceOrphan'>;

/**
 * Plan with what the other projects' states say: the states of the projects the code references
 * (read first), and, only when the plan would delete or replace something, which of this
 * project's resources the others reference: then it is planned again with them. A project that
 * references no other and deletes nothing reads no other project's state.
 */
export async function planAcrossProjects(
  target: Target,
  forceOrphan: boolean,
  make: (input: ProjectsInput) => Plan,
): Promise<Plan> {
  const others = target.otherProjects;
  const projectStates = new Map<string, State | undefined>();
  for (const name of referencedProjectNames(target.project.resources)) {
    projectStates.set(name, await others?.state(name));
  }
  const input: ProjectsInput = { projectStates, ...(forceOrphan ? { forceOrphan } : {}) };
  const made = make(input);
  const deletes = made.operations.some((op) => op.action === 'delete' || op.action === 'replace');
  if (others === undefined || !deletes) return made;
  const referenced = referencedBy(target.project.config.projectName, await others.all());
  return referenced.size === 0 ? made : make({ ...input, referencedBy: referenced });
}
