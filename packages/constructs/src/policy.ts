import type {
  ALERT_CHANNEL_DEFAULTS,
  AlertChannelCreate,
  CHECK_GROUP_DEFAULTS,
  CheckGroupCreate,
  DASHBOARD_DEFAULTS,
  DashboardCreate,
  MAINTENANCE_WINDOW_DEFAULTS,
  MaintenanceWindowCreate,
  STATUS_PAGE_DEFAULTS,
  STATUS_PAGE_VISIBILITY_DEFAULTS,
  StatusPageCardRequest,
  StatusPageCreate,
  StatusPageServiceCreate,
  StatusPageVisibility,
} from '@monitor/api';
import type { ResourceKind, SourceLocation } from './session.js';

/** How much a finding matters: an `error` makes `monitor deploy` refuse (exit 3). */
export type PolicySeverity = 'error' | 'warning' | 'info';

/**
 * A reference in a payload: `{ $ref: 'Kind:logicalId' }` for a construct of the project (see
 * `PolicyProject.resolve`), or the physical id of an existing resource (`X.fromId(id)`).
 */
export type PolicyRef<Id extends string | number> = Id | { readonly $ref: string };

/** A request body `T` with the fields `D` documents defaults for always there (synthesis fills them). */
type Filled<T, D> = T extends unknown
  ? Omit<T, keyof D> & { [P in keyof D & keyof T]-?: Exclude<T[P], undefined> }
  : never;

/**
 * Each kind's payload as a policy sees it: the request body, with every documented default filled
 * in and references as {@link PolicyRef}s. Sensitive values are a marker string.
 */
export interface PolicyPayloads {
  CheckGroup: Omit<Filled<CheckGroupCreate, typeof CHECK_GROUP_DEFAULTS>, 'alertChannelSubscriptions'> & {
    alertChannelSubscriptions: { alertChannelId: PolicyRef<number>; activated: boolean }[];
  };
  Dashboard: Filled<DashboardCreate, typeof DASHBOARD_DEFAULTS>;
  StatusPage: Omit<Filled<StatusPageCreate, typeof STATUS_PAGE_DEFAULTS>, 'cards'> & {
    cards: (Omit<StatusPageCardRequest, 'services'> & { services: { id: PolicyRef<string> }[] })[];
  };
  StatusPageService: StatusPageServiceCreate;
  MaintenanceWindow: Omit<
    Filled<MaintenanceWindowCreate, typeof MAINTENANCE_WINDOW_DEFAULTS>,
    'statusPageVisibility'
  > & {
    statusPageVisibility: Omit<
      Filled<StatusPageVisibility, typeof STATUS_PAGE_VISIBILITY_DEFAULTS>,
      'statusPageIds' | 'serviceIds'
    > & { statusPageIds: PolicyRef<string>[]; serviceIds: PolicyRef<string>[] };
  };
  AlertChannel: Filled<AlertChannelCreate, typeof ALERT_CHANNEL_DEFAULTS>;
}

/** A construct as a policy sees it: synthesized, fully defaulted, with where it was made. */
export interface PolicyResource {
  readonly kind: ResourceKind;
  /** The construct class, e.g. `CheckGroup` or `SlackAlertChannel`. */
  readonly construct: string;
  readonly logicalId: string;
  /**
   * The request payload, every default filled in; references to other constructs as
   * `{ $ref: 'Kind:logicalId' }`, to existing resources (`fromId`) as their ids.
   */
  readonly payload: Readonly<Record<string, unknown>>;
  /** The environment loaded (`--env`), when the config defines environments. */
  readonly environment: string | undefined;
  /** Where `new` was called, in the TypeScript source. */
  readonly location: SourceLocation | undefined;
  /**
   * The comment written beside a prop in the construct's `new X('id', { … })`: on the prop's own
   * line after it, or on the line just above it. Undefined when there is none, or when the prop is
   * not written there (it comes from the config's `defaults`, a variable or a spread).
   */
  commentOn(prop: string): string | undefined;
}

/**
 * A construct of kind `K` as a rule with `kinds` sees it: its payload typed as that kind's request
 * body ({@link PolicyPayloads}).
 */
export interface KindResource<K extends ResourceKind> extends PolicyResource {
  readonly kind: K;
  readonly payload: Readonly<PolicyPayloads[K]>;
}

/**
 * What a construct rule of `kinds` K checks: a {@link KindResource} per kind (a union told apart by
 * `kind`), or the untyped {@link PolicyResource} when the rule runs on every kind.
 */
export type PolicyResourceOf<K extends ResourceKind> = [ResourceKind] extends [K]
  ? PolicyResource
  : K extends ResourceKind
    ? KindResource<K>
    : never;

/** The whole project, for rules that look beyond one construct. */
export interface PolicyProject {
  readonly resources: readonly PolicyResource[];
  readonly environment: string | undefined;
  /** The construct a payload reference (`{ $ref: 'Kind:logicalId' }`) names, when it is in the project. */
  resolve(ref: unknown): PolicyResource | undefined;
}

/** One operation of a plan as a policy sees it. */
export interface PolicyOperation {
  readonly action: 'create' | 'update' | 'delete' | 'adopt' | 'move' | 'replace';
  readonly kind: ResourceKind;
  readonly logicalId: string;
  /** What people call it: its name, header or address. */
  readonly name: string | undefined;
  readonly physicalId: string | number | undefined;
  /** The resource in the account before the plan (secrets masked as the service masks them). */
  readonly before: Readonly<Record<string, unknown>> | undefined;
  /** The payload the code wants; undefined for a delete. */
  readonly after: Readonly<Record<string, unknown>> | undefined;
  /** For updates, adoptions and moves: the changed paths. */
  readonly changes: readonly { path: string; before: unknown; after: unknown }[];
  /** The change came from outside monitor (drift), not from the code. */
  readonly drift: boolean;
  /** The construct in code; undefined for a delete of one removed from the code. */
  readonly resource: PolicyResource | undefined;
}

/** A construct the plan cannot place (see `monitor diff`): deploy refuses while one stands. */
export interface PolicyConflict {
  /** `unresolved`: a reference to another project's construct it has not deployed; `referenced`: a delete another project's construct would lose. */
  readonly reason: 'exists' | 'rename' | 'taken' | 'owned' | 'identity' | 'unresolved' | 'referenced';
  readonly kind: ResourceKind;
  readonly logicalId: string;
  /** The field whose value collides, and that value. */
  readonly field: string;
  readonly value: string;
}

/** A plan as a policy sees it. */
export interface PolicyPlan {
  readonly operations: readonly PolicyOperation[];
  readonly deletions: readonly PolicyOperation[];
  readonly adoptions: readonly PolicyOperation[];
  readonly conflicts: readonly PolicyConflict[];
  /** Every construct of the project. */
  readonly project: PolicyProject;
  /** The account as read for the plan: every managed resource, by kind. */
  readonly live: Readonly<Record<ResourceKind, readonly Readonly<Record<string, unknown>>[]>>;
}

/** What a construct rule reports: a message, or a message at one of the construct's props. */
export type PolicyViolation = string | { message: string; path?: string; hint?: string };

/** What a plan rule reports: a message, about one construct or resource when it names it. */
export type PlanPolicyViolation =
  | string
  | { message: string; kind?: ResourceKind; logicalId?: string; path?: string; hint?: string };

interface PolicyBase {
  /** Unique in a project; what `policyExceptions` and the config's `policySeverity` name. */
  name: string;
  /** One sentence: what the rule asks for and why. */
  description: string;
  severity: PolicySeverity;
}

/**
 * A rule about each construct: `check` runs once per synthesized construct (of `kinds`, when
 * given) and returns nothing when the construct is fine, or what is wrong with it.
 */
export interface ConstructPolicy<R extends PolicyResource = PolicyResource> extends PolicyBase {
  /** @default 'construct' */
  scope?: 'construct';
  /** Run only on these kinds; `check` then sees their payloads typed. @default every kind */
  kinds?: readonly R['kind'][];
  check(
    resource: R,
    project: PolicyProject,
    // biome-ignore lint/suspicious/noConfusingVoidType: a check may end without a return statement
  ): PolicyViolation | readonly PolicyViolation[] | undefined | void;
}

/** A rule about the plan (`monitor diff` and `monitor deploy`): runs once per plan. */
export interface PlanPolicy extends PolicyBase {
  scope: 'plan';
  // biome-ignore lint/suspicious/noConfusingVoidType: a check may end without a return statement
  check(plan: PolicyPlan): PlanPolicyViolation | readonly PlanPolicyViolation[] | undefined | void;
}

export type Policy = ConstructPolicy | PlanPolicy;

/**
 * A policy for the config's `policies`: a construct rule (the default) sees each construct, a
 * plan rule (`scope: 'plan'`) sees the plan. `check` is synchronous; return nothing when all is well.
 * A construct rule with `kinds` sees those kinds' payloads typed.
 *
 * ```ts
 * export const ownerTag = definePolicy({
 *   name: 'owner-tag',
 *   description: 'Every check group names its owning team in a team:* tag.',
 *   severity: 'error',
 *   kinds: ['CheckGroup'],
 *   check: (group) =>
 *     group.payload.tags.some((t) => t.startsWith('team:')) ? undefined : 'has no team:* tag',
 * });
 * ```
 */
export function definePolicy(policy: PlanPolicy): PlanPolicy;
export function definePolicy<K extends ResourceKind = ResourceKind>(
  policy: ConstructPolicy<PolicyResourceOf<K>> & { kinds?: readonly K[] },
): ConstructPolicy<PolicyResourceOf<K>>;
export function definePolicy(policy: Policy): Policy {
  return policy;
}

/** A construct's waiver of one policy's findings on it; the finding is still listed, as waived. */
export interface PolicyException {
  /** The policy's name. */
  policy: string;
  /** Why the finding does not apply here; required, and shown wherever the waived finding is. */
  reason: string;
}
