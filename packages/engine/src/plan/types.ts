import type { ResourceKind } from '@monitor/api';
import type { Diagnostic, SourceLocation } from '@monitor/constructs';
import type { SecretHasher } from '../hash.js';
import type { ByPhysicalId } from '../identity.js';
import type { State } from '../state/state.js';
import type { Change } from './diff.js';

export const PLAN_FORMAT_VERSION = 1;

/** A live resource as read from the API. */
export type LiveResource = Record<string, unknown> & { id: string | number };
/** Every live resource of each managed kind, as read from the list endpoints. */
export type Live = Record<ResourceKind, LiveResource[]>;

interface Base {
  kind: ResourceKind;
  logicalId: string;
  /** What people call it (its name, header or address): from the code, or the account for deletes. */
  name?: string;
  /** The construct class; absent for deletes of constructs removed from code. */
  construct?: string;
}
/** What a create or an update records in state once written. */
interface Desired {
  /** The constructs of other projects the payload references (`project/Kind:logicalId`), sorted: recorded in state as `uses`. */
  uses?: string[];
  /** The payload to send, references resolved where the physical id is known. Holds secrets: never print it. */
  payload: Record<string, unknown>;
  /** State keys (`Kind:logicalId`) this resource refers to. */
  dependsOn: string[];
  /** `appliedHash` of the desired payload: recorded in state after the write. */
  desiredHash: string;
  protect: boolean;
  /** Fields the construct leaves to people (`ignoreChanges`): kept out of updates and fingerprints. */
  ignoreChanges?: string[];
  /** Short hashes of each field of the desired payload: recorded in state with the account's (`fieldHashes`). */
  fieldHashes?: Record<string, string>;
}
export interface CreateOperation extends Base, Desired {
  action: 'create';
  /** A state entry existed but the resource is gone from the account. */
  recreate: boolean;
}
export interface UpdateOperation extends Base, Desired {
  action: 'update' | 'adopt' | 'move';
  physicalId: string | number;
  changes: Change[];
  /** Every change is the account's (`cause: 'account'`): the code did not change what differs. */
  drift: boolean;
  unchangedAttributes: number;
  /** For `move`: the logical id in state before the rename. */
  from?: string;
  /** For `adopt`: the resource an interrupted deploy created (state had its create pending). */
  resumed?: boolean;
  /**
   * What tells the live resource apart now (`identityOf`): recorded when no write answers with it
   * (an adopt or a move with no changed field), so its entry keeps the service's creation time.
   */
  identity?: string;
}
/** Delete the resource and create it again from the code, on purpose (`--replace`). */
export interface ReplaceOperation extends Base, Desired {
  action: 'replace';
  /** The resource deleted first. */
  physicalId: string | number;
  /**
   * What the account holds that the new resource will not: values of `ignoreChanges` fields set
   * in the account (the UI's), which the new resource takes from the code. `before` is the
   * account's value, `after` the code's.
   */
  lost?: Change[];
}
export interface DeleteOperation extends Base {
  action: 'delete';
  physicalId: string | number;
  /** State keys of the deletes that must finish first: the resources that refer to this one. */
  dependsOn: string[];
}
export type Operation = CreateOperation | UpdateOperation | ReplaceOperation | DeleteOperation;

/**
 * A construct the plan cannot place without taking or breaking something: deploy refuses the
 * whole plan while one stands.
 * - `exists`: a live resource that no project owns has the construct's natural key or a unique
 *   key. Creating would duplicate it or fail with 409; adopting it needs `adopt: true`.
 * - `rename`: the construct would be created while the resource of another logical id, which holds
 *   the same natural or unique key, leaves the code (deleted, or kept as protected): a renamed
 *   logical id without `aliases`.
 * - `taken`: a resource this project owns under another logical id holds a unique key the create needs.
 * - `owned`: another project (sharing this state database) owns the live resource; `adopt: true`
 *   does not take it: that project has to let it go first.
 * - `unresolved`: the construct references another project's construct (`X.fromProject`) that the
 *   other project's state does not record in this account (`missing` says what is missing).
 * - `referenced`: the plan would delete (or replace) a resource that other projects' constructs
 *   reference (their state's `uses`); only `--force-orphan` lets it go.
 */
export interface Conflict {
  /**
   * `identity`: state records the construct at an id where the account holds another resource
   * (state edited by hand, ids swapped, or another service's): a state problem, never an update.
   */
  reason: 'exists' | 'rename' | 'taken' | 'owned' | 'identity' | 'unresolved' | 'referenced';
  kind: ResourceKind;
  logicalId: string;
  /** The construct class; absent for the delete of a construct gone from the code (`referenced`). */
  construct?: string;
  location?: SourceLocation | undefined;
  /**
   * The field whose value collides, e.g. `name` or `customUrl`, and that value; for `unresolved`,
   * the payload path of the reference and the construct it names (`AlertChannel:pagerduty-oncall`).
   */
  field: string;
  value: string;
  /** The live resource in the way (or, for `referenced`, the one referenced); absent for `unresolved`. */
  live?: { id: string | number; name?: string };
  /**
   * For `rename` and `taken`: the logical id that holds the live resource; for `owned`, the
   * project; for `identity`, the entry whose recorded identity the live resource has, if one does;
   * for `unresolved`, the project the reference names.
   */
  holder?: string;
  /**
   * For `unresolved`: no such `project` has state in this account, it has not deployed the
   * `construct`, or the `resource` its state records is gone from the account.
   */
  missing?: 'project' | 'construct' | 'resource';
  /** For `referenced`: the constructs of other projects that reference it (`project/Kind:logicalId`), sorted. */
  usedBy?: string[];
}

/** A reference to another project's construct, resolved: shown in the plan of what holds it. */
export interface ProjectRefResolved {
  /** The state key of the resource that holds the reference. */
  from: string;
  project: string;
  /** `Kind:logicalId` in that project. */
  ref: string;
  physicalId: string | number;
}

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  /** `destroy`: every owned resource goes, whatever the code says. */
  mode: PlanMode;
  /** When the plan was made (the `now` it was given). */
  createdAt: string;
  operations: Operation[];
  /** Resources in code whose live values match. */
  unchanged: number;
  /** State entries whose resource is gone from the account and from code: dropped from state, no call. */
  forget: string[];
  /**
   * State entries whose physical id now holds another resource than the one recorded (another
   * name, created at another time): that resource is a stranger, never changed or deleted; the
   * entry is treated as gone (forgotten, or its construct created again).
   */
  mismatched: MismatchedEntry[];
  /** Resources removed from code but kept because they are protected. */
  protectedKept: string[];
  /**
   * Resources that would be deleted but are kept because a kept protected resource refers to them
   * (deleting an alert channel would change the protected group that subscribes to it).
   */
  keptForProtected: { key: string; by: string }[];
  /** Owned resources whose `protect` changed in code and nothing else: recorded in state, no call. */
  protectChanged: { key: string; protect: boolean }[];
  /**
   * Owned resources whose references to other projects' constructs (`uses`) changed and nothing
   * else (a `fromId` written as the `fromProject` of the same resource): recorded in state, no call.
   */
  usesChanged?: { key: string; uses: string[] }[];
  /**
   * The references to other projects' constructs (`X.fromProject`) of the resources the plan
   * creates or updates, each with the id it resolved to. Absent when there are none.
   */
  projectRefs?: ProjectRefResolved[];
  /**
   * Resources deleted or replaced although other projects' constructs reference them (`--force-orphan`):
   * those references no longer resolve. Absent when there are none.
   */
  orphaned?: { key: string; usedBy: string[] }[];
  /** Constructs that cannot be placed: deploy refuses while there are any. */
  conflicts: Conflict[];
  /**
   * What the project's policies found: the construct rules' findings and the plan rules'. Deploy
   * refuses while one is an `error` (waived ones are `info`). Empty until the flow runs them.
   */
  findings: Diagnostic[];
  /** A partial plan's targets (state keys); absent when the plan covers the whole project. */
  targets?: string[];
  /** The constructs replaced on purpose (state keys). */
  replace?: string[];
  /**
   * Sensitive values the service masks that could not be compared, because no state secret was
   * given: they are sent again on every deploy.
   */
  unverifiedSecrets: number;
  /**
   * Pending creates of an interrupted deploy that this plan does not resume (their constructs are
   * gone from the code): dropped from state. If the service made them, they stay unmanaged.
   */
  abandonedCreates: string[];
  /**
   * `update` leaves out the updates whose every change is a secret that could not be compared
   * (no state secret): they are `resend`, sent again by a deploy but no change a diff reports.
   */
  summary: {
    create: number;
    update: number;
    delete: number;
    adopt: number;
    move: number;
    replace: number;
    resend: number;
    unchanged: number;
  };
  stateSerial: number;
  /**
   * Who gets paged, before and after: the groups whose route the plan changes. Not made by `plan`
   * (which knows nothing of routing) but beside it, by the flows that read the account.
   */
  routing?: RoutingChanges;
  /** The state the plan was made against: what apply starts from. Never printed. */
  priorState: State;
  /** Fingerprints sensitive values for state, keyed by the state secret. Never printed. */
  secrets: SecretHasher;
}

export type PlanMode = 'apply' | 'destroy';

/** A state entry whose physical id holds another resource now. */
export interface MismatchedEntry {
  key: string;
  physicalId: string | number;
  /** What state recorded of it, and what the account holds there: names or natural keys. */
  recorded: string;
  found: string;
}

export interface PlanOptions {
  /** The planner is pure: the clock comes in, and the plan records it. */
  now: Date;
  /**
   * The state secret: the key of the hashes of sensitive values (`secretHasher`). Without it, values
   * the service masks cannot be compared and are sent on every deploy.
   */
  secretKey?: string | undefined;
  /** @default 'apply' */
  mode?: PlanMode;
  /** In `destroy` mode, delete `protect: true` resources too. @default false */
  forceProtected?: boolean;
  /** Live resources other projects own (→ the project): never taken or touched. */
  otherOwners?: ByPhysicalId<string>;
  /**
   * Plan only these (`logicalId` or `Kind:logicalId`), and what they need created first; the rest of
   * the project is not compared. Unknown ids are a `TargetError`.
   */
  targets?: readonly string[];
  /** Delete and create again these constructs (`logicalId` or `Kind:logicalId`). */
  replace?: readonly string[];
  /**
   * The states of the other projects whose constructs the code references (`X.fromProject`), by
   * project name; undefined for a project not found. Without it, every such reference is unresolved.
   */
  projectStates?: ReadonlyMap<string, State | undefined>;
  /**
   * Which of this project's resources other projects' constructs reference, by state key (→
   * `project/Kind:logicalId` of each referrer): deleting or replacing one is a `referenced` conflict.
   */
  referencedBy?: ReadonlyMap<string, readonly string[]>;
  /** Delete and replace what other projects reference anyway (`--force-orphan`). @default false */
  forceOrphan?: boolean;
}

/** How a plan changes where one group's alerts go. */
export interface RouteChange {
  /** `CheckGroup:logicalId`. */
  group: string;
  logicalId: string;
  name: string;
  /** The route now, in one line; null for a group the plan creates. */
  before: string | null;
  /** The route once the plan is applied. */
  after: string;
  /** Once the plan is applied, no one is told when its checks fail. */
  noFailureRoute: boolean;
}

/** The routing section of a plan: the groups whose route it changes. */
export interface RoutingChanges {
  changes: RouteChange[];
  /** Changed groups left with no route for failures: flagged at the top. */
  unrouted: string[];
  /** The changed groups as a picture, before and after in one (the first that fit). Not in the plan's JSON. */
  picture?: RoutePicture;
}

/**
 * Who gets paged, as a graph to draw (`routes --format mermaid|dot`, the pull-request comment):
 * check groups → the events they send → channels, bounded to a few dozen nodes. Labels are account
 * and code text: each renderer escapes them.
 */
export interface RoutePicture {
  nodes: PictureNode[];
  edges: PictureEdge[];
  /** Groups left out to keep it bounded (a node says how many). */
  moreGroups: number;
}

export interface PictureNode {
  /** An id of the picture's own (`g0`, `g0e1`, `c3`): never account text. */
  id: string;
  /** `nobody`: where failures go when no channel is told; `more`: what was left out. */
  kind: 'group' | 'event' | 'channel' | 'nobody' | 'more';
  lines: string[];
  /** A group no one is told of when its checks fail. */
  unrouted?: boolean;
}

export interface PictureEdge {
  from: string;
  to: string;
  /** In a plan's picture: an edge the plan adds or removes. */
  change: 'same' | 'added' | 'removed';
  /** On a group's edges: the maintenance windows that silence it. */
  lines: string[];
}
