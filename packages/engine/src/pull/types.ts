import type { ResourceKind } from '@monitor/api';
import type { SourceLocation } from '@monitor/constructs';
import type { PropValue } from '../import/values.js';

/**
 * What the stages of `monitor pull` hand one another: the plan of what to write back
 * (`plan-pull.ts`), the edits of one construct's source (`rewrite.ts`), and what is left to people.
 */

/** One step of a prop path: a field, or the entry of a keyed list named by its key. */
export interface PropStep {
  field: string;
  /** The entry's key, and the field of the entries that holds it (`key` of environment variables). */
  entry?: { key: string; keyField: string };
}

/** A prop (or a value inside one) to write as the account has it. */
export interface PropEdit {
  /** As the plan prints paths, under the props: `alertSettings.reminders.amount`, or a whole prop. */
  path: string;
  steps: PropStep[];
  /** The account's value there; `undefined` when the account has none (the code's is removed). */
  value: PropValue | undefined;
  /** The account's value at each step's end, to add what the code does not write at all. */
  valuesAlong: (PropValue | undefined)[];
  /** For a keyed step, the account's whole list it picks its entry from. */
  listsAlong: (PropValue | undefined)[];
  /** The plan's change paths it brings back. */
  changes: string[];
  /** A prop of references (written as the variables of constructs), written again whole. */
  references: boolean;
  /**
   * For a keyed list written again: the field that names its entries, and the keys of the entries
   * the account changed inside (those it added or removed are found by their keys).
   */
  entries?: { keyField: string; changed: string[] };
}

export interface ResourcePull {
  key: string;
  kind: ResourceKind;
  logicalId: string;
  construct: string;
  location?: SourceLocation | undefined;
  edits: PropEdit[];
}

/** A change `pull` leaves to people, with why. */
export interface NotPulled {
  key: string;
  kind: ResourceKind;
  logicalId: string;
  /** Where the construct is made. */
  location?: SourceLocation | undefined;
  path: string;
  reason: 'code-changed' | 'secret' | 'no-prop';
}

/** A change left to people at its place: the prop's file and line (`''` and 0 when the construct has no place). */
export type PlacedNotPulled = NotPulled & { file: string; line: number };

export interface PullPlan {
  resources: ResourcePull[];
  notPulled: NotPulled[];
}

export interface PulledEdit {
  key: string;
  path: string;
  line: number;
}

export interface ManualEdit {
  key: string;
  path: string;
  line: number;
  /** Why it is left to people. */
  reason: string;
  /** The account's value, to write by hand (references by logical id). */
  value: unknown;
}

/** What the rewriter knows of the file: the names it declares or imports. */
export interface ObjectFinder {
  names: ReadonlySet<string>;
}

export interface RewriteContext {
  /** The variable that holds the construct of a referenced resource in this file, if there is one. */
  variableOf: (file: ObjectFinder, kind: string, physicalId: string | number) => string | undefined;
  /** The account's value for people to read: references by logical id. */
  display: (value: PropValue | undefined) => unknown;
  /** Constructs made at the same place (a helper called for each): their props are shared. */
  shared: (resource: ResourcePull) => boolean;
}

export interface PulledFile {
  /** Absolute. */
  file: string;
  before: string;
  after: string;
  /** The edit as a unified diff, with paths relative to the project. */
  patch: string;
}
