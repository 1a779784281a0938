import type { State } from './state.js';

/**
 * The states other projects keep in the same account: what `X.fromProject` references resolve
 * against, and whose `uses` keep a project from deleting what another references. Read only.
 * The shared state database holds them (`PostgresStateBackend.otherProjects`); with file state,
 * the other projects of the workspace (`workspaceProjectStates`).
 */
export interface OtherProjects {
  /** Where they are read from, for messages: `the state database …`, `the workspace at …`. */
  readonly where: string;
  /** The state of project `name` in this account; undefined when there is no such project there. */
  state(name: string): Promise<State | undefined>;
  /** Every other project's state in this account, by project name. */
  all(): Promise<Map<string, State>>;
}
