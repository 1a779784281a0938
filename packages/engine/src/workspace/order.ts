import { ProjectCycleError } from './errors.js';

/** A project and the projects whose constructs it references (`X.fromProject`). */
export interface ProjectDependencies {
  name: string;
  dependsOn: readonly string[];
}

/**
 * The projects in dependency order: each after every project it references, and otherwise in the
 * order given. References to projects not among them are left out (the plan reports those). A
 * cycle is refused, naming it.
 */
export function dependencyOrder<T extends ProjectDependencies>(projects: readonly T[]): T[] {
  const cycle = findCycle(projects);
  if (cycle !== undefined) {
    throw new ProjectCycleError(
      `projects reference each other in a cycle: ${cycle.join(' → ')}`,
      'a project can only reference constructs of a project deployed before it: move the shared constructs into one project that the others reference',
    );
  }
  const byName = new Map(projects.map((p) => [p.name, p]));
  const placed = new Set<string>();
  const order: T[] = [];
  const place = (project: T) => {
    if (placed.has(project.name)) return;
    placed.add(project.name);
    for (const name of project.dependsOn) {
      const dependency = byName.get(name);
      if (dependency !== undefined) place(dependency);
    }
    order.push(project);
  };
  for (const project of projects) place(project);
  return order;
}

/** A loop of references among the projects, as names from a project back to itself; undefined when there is none. */
export function findCycle(projects: readonly ProjectDependencies[]): string[] | undefined {
  const byName = new Map(projects.map((p) => [p.name, p]));
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (name: string): string[] | undefined => {
    const at = path.indexOf(name);
    if (at >= 0) return [...path.slice(at), name];
    if (done.has(name)) return undefined;
    const project = byName.get(name);
    if (project === undefined) return undefined;
    path.push(name);
    for (const next of project.dependsOn) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    path.pop();
    done.add(name);
    return undefined;
  };
  for (const project of projects) {
    const cycle = visit(project.name);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

/** `names` and every project that references one of them, directly or through others. */
export function withDependents(
  names: ReadonlySet<string>,
  projects: readonly ProjectDependencies[],
): Set<string> {
  const result = new Set(names);
  for (let grew = true; grew; ) {
    grew = false;
    for (const project of projects) {
      if (result.has(project.name)) continue;
      if (project.dependsOn.some((name) => result.has(name))) {
        result.add(project.name);
        grew = true;
      }
    }
  }
  return result;
}

/** The projects `project` references, directly or through others. */
export function dependenciesOf(project: string, projects: readonly ProjectDependencies[]): Set<string> {
  const byName = new Map(projects.map((p) => [p.name, p]));
  const result = new Set<string>();
  const visit = (name: string) => {
    for (const next of byName.get(name)?.dependsOn ?? []) {
      if (result.has(next)) continue;
      result.add(next);
      visit(next);
    }
  };
  visit(project);
  return result;
}
