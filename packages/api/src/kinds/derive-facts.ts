import { KIND_SCHEMAS } from '../kind-schemas.js';
import {
  alertSettingsSchema,
  apiCheckDefaultsSchema,
  checkGroupAlertChannelSubscriptionSchema,
  environmentVariableSchema,
  retryStrategyObjectSchema,
} from '../schemas/check-groups.js';
import { type DefaultsOf, FIELD_DEFAULTS, type FieldsOf, fieldDefaults } from '../schemas/field-default.js';
import { statusPageVisibilitySchema } from '../schemas/maintenance-windows.js';
import { statusPageServerSchema } from '../schemas/status-pages.js';
import type { z } from '../zod.js';
import type { ResourceKind } from './definition.js';
import { defOf, objectsOf } from './schema-defs.js';

/**
 * What the kinds' definitions read of their schemas, as plain data: the documented defaults and
 * the field paths. Derived here from the schemas; the build writes the result into
 * `kinds/schemas-link.js` as a literal (scripts/link-kind-schemas.mjs), so that reading a default
 * loads neither zod nor a schema.
 */
export function deriveKindFacts() {
  const { CheckGroup, Dashboard, StatusPage, MaintenanceWindow, AlertChannel } = KIND_SCHEMAS;
  return {
    defaults: {
      CHECK_GROUP_DEFAULTS: defaultsOf(CheckGroup.create),
      API_CHECK_DEFAULTS_DEFAULT: defaultsOf(apiCheckDefaultsSchema),
      ALERT_SETTINGS_DEFAULT: defaultsOf(alertSettingsSchema),
      RETRY_STRATEGY_OBJECT_DEFAULTS: defaultsOf(retryStrategyObjectSchema),
      ENVIRONMENT_VARIABLE_DEFAULTS: defaultsOf(environmentVariableSchema),
      SUBSCRIPTION_DEFAULTS: defaultsOf(checkGroupAlertChannelSubscriptionSchema),
      DASHBOARD_DEFAULTS: defaultsOf(Dashboard.create),
      STATUS_PAGE_DEFAULTS: defaultsOf(StatusPage.create),
      STATUS_PAGE_SERVER_DEFAULTS: defaultsOf(statusPageServerSchema),
      MAINTENANCE_WINDOW_DEFAULTS: defaultsOf(MaintenanceWindow.create),
      STATUS_PAGE_VISIBILITY_DEFAULTS: defaultsOf(statusPageVisibilitySchema),
      ALERT_CHANNEL_DEFAULTS: defaultsOf(AlertChannel.create),
    },
    fieldPaths: Object.fromEntries(
      Object.entries(KIND_SCHEMAS).map(([kind, schemas]) => {
        const paths = new Set<string>();
        walk(schemas.create, '', paths);
        return [kind, [...paths]];
      }),
    ) as unknown as Record<ResourceKind, readonly string[]>,
  };
}

export type KindFacts = ReturnType<typeof deriveKindFacts>;

/**
 * The defaults the fields of the object `schema` is declare (`withDefault`), by field, in the
 * order they are declared; every variant's when it is a union. An object field declared
 * `withFieldDefaults` has the object of its own fields' defaults. What a kind's `*_DEFAULTS` are.
 */
export function defaultsOf<S extends z.ZodType>(schema: S): DefaultsOf<FieldsOf<S>> {
  const out: Record<string, unknown> = {};
  for (const shape of objectsOf(schema)) {
    for (const [field, inner] of Object.entries(shape)) {
      const declared = declaredDefault(inner);
      if (declared === undefined) continue;
      out[field] = declared.value === FIELD_DEFAULTS ? defaultsOf(declared.schema) : declared.value;
    }
  }
  return out as DefaultsOf<FieldsOf<S>>;
}

/** The default `field` declares, and the schema that declares it: through `.optional()`. */
function declaredDefault(field: z.ZodType): { schema: z.ZodType; value: unknown } | undefined {
  for (let at: z.ZodType | undefined = field; at !== undefined; ) {
    const declared = fieldDefaults.get(at);
    if (declared !== undefined) return { schema: at, value: declared.default };
    const def = defOf(at);
    at = def.type === 'optional' ? def.innerType : undefined;
  }
  return undefined;
}

/** The fields of `schema` as paths (`[]` for the items of a list), into `out`. */
function walk(schema: z.ZodType, at: string, out: Set<string>): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      for (const [field, inner] of Object.entries(def.shape ?? {})) {
        const path = at === '' ? field : `${at}.${field}`;
        out.add(path);
        walk(inner, path, out);
      }
      return;
    case 'array':
      out.add(`${at}[]`);
      if (def.element !== undefined) walk(def.element, `${at}[]`, out);
      return;
    case 'union':
      for (const option of def.options ?? []) walk(option, at, out);
      return;
    case 'pipe':
      if (def.in !== undefined) walk(def.in, at, out);
      return;
    case 'lazy':
      if (def.getter !== undefined) walk(def.getter(), at, out);
      return;
    default:
      if (def.innerType !== undefined) walk(def.innerType, at, out);
  }
}
