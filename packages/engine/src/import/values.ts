import { isRecord, isSensitive, KINDS, type ResourceKind } from '@monitor/api';
import { isSourceRef, type SourceRef } from '@monitor/constructs';

/** A reference to another resource in imported props: a variable when it is imported too, else `fromId`. */
export type RefValue = SourceRef;

/**
 * A sensitive value in imported props: never written, read from an environment variable instead.
 * `path` names it as a diff does (`environmentVariables[TOKEN].value`); `masked` when the service
 * does not return it (a secret env var), so monitor cannot know it.
 */
export interface SecretValue {
  readonly $import: 'secret';
  readonly path: string;
  readonly value: string;
  readonly masked: boolean;
  /** The environment variable the generated code reads it from, once named. */
  readonly env?: string;
}

export type PropValue =
  | null
  | boolean
  | number
  | string
  | RefValue
  | SecretValue
  | PropValue[]
  | { [key: string]: PropValue };

export type Props = Record<string, PropValue>;

export const isRefValue: (v: unknown) => v is RefValue = isSourceRef;
export function isSecretValue(v: unknown): v is SecretValue {
  return typeof v === 'object' && v !== null && (v as { $import?: unknown }).$import === 'secret';
}

type Record_ = Record<string, unknown>;

/**
 * A copy of a live resource with every sensitive value replaced by a `SecretValue`: those the
 * service returns (an alert channel's keys) and those it masks (a secret env var, always `""`).
 * Empty values that are not masked (a basic-auth password left empty) stay as they are.
 */
export function markSecrets(kind: ResourceKind, live: Record_): Record_ {
  const def = KINDS[kind];
  const walk = (value: unknown, rulePath: string, path: string): unknown => {
    if (Array.isArray(value)) {
      const keyField = def.keyed[rulePath];
      return value.map((item, i) => {
        const name = keyField !== undefined && isRecord(item) ? String(item[keyField]) : String(i);
        return walk(item, `${rulePath}[]`, `${path}[${name}]`);
      });
    }
    if (!isRecord(value)) return value;
    const out: Record_ = {};
    for (const [key, field] of Object.entries(value)) {
      const fieldRule = rulePath === '' ? key : `${rulePath}.${key}`;
      const fieldPath = path === '' ? key : `${path}.${key}`;
      // A secret env var comes back as "" whatever it holds.
      const masked = value.secret === true && field === '';
      if (typeof field === 'string' && (field !== '' || masked) && isSensitive(def, fieldRule, value, live)) {
        out[key] = { $import: 'secret', path: fieldPath, value: field, masked } satisfies SecretValue;
      } else out[key] = walk(field, fieldRule, fieldPath);
    }
    return out;
  };
  return walk(live, '', '') as Record_;
}
