import { z } from '@monitor/api/zod';
import { isRoutingTest, type RoutingTest } from '@monitor/constructs';

// The shape a config's default export must have, in zod: loaded (with zod) only for a config that
// `isPlainlyValid` (config-check.ts) cannot vouch for, to say what is wrong with it.

const stringOrList = z.union([
  z.string().min(1),
  z.array(z.string().min(1)).min(1, 'needs at least one pattern (leave it out for the default)'),
]);

const stateSchema = z
  .strictObject({
    /** `file` (default): `path`, committed with the code. `postgres`: `url`, shared by a team and CI. */
    backend: z.enum(['file', 'postgres']).optional(),
    path: z.string().min(1).optional(),
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  })
  .refine((s) => s.backend !== 'postgres' || s.url !== undefined, {
    message: "backend 'postgres' needs a url (or set MONITOR_STATE_URL)",
    path: ['url'],
  });

/** An account's rate limit: `requests` per `perSeconds` seconds. */
const rateLimitSchema = z.strictObject({
  requests: z.number().int('must be a whole number').min(1, 'must be at least 1'),
  perSeconds: z.number().positive('must be more than 0'),
});

/** The shape a config's default export must have. */
export const configSchema = z.strictObject({
  projectName: z.string().min(1),
  include: stringOrList.optional(),
  exclude: stringOrList.optional(),
  defaults: z
    .strictObject({
      CheckGroup: z.record(z.string(), z.unknown()).optional(),
      Dashboard: z.record(z.string(), z.unknown()).optional(),
      StatusPage: z.record(z.string(), z.unknown()).optional(),
      MaintenanceWindow: z.record(z.string(), z.unknown()).optional(),
      AlertChannel: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  state: stateSchema.optional(),
  api: z.strictObject({ baseUrl: z.url().optional() }).optional(),
  environments: z
    .record(
      z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'an environment name is letters, digits, - and _'),
      z.strictObject({
        accountId: z.uuid('must be the account id, a UUID').optional(),
        baseUrl: z.url().optional(),
        state: stateSchema.optional(),
        rateLimit: rateLimitSchema.optional(),
      }),
    )
    .refine((e) => Object.keys(e).length > 0, 'name at least one environment, or leave environments out')
    .optional(),
  // Each policy is checked by selectPolicies, which knows what a policy is and names it.
  policies: z.array(z.unknown()).optional(),
  policySeverity: z.record(z.string(), z.enum(['error', 'warning', 'info', 'off'])).optional(),
  policyTimeoutSeconds: z.number().positive().max(3600).optional(),
  routingTests: z
    .array(
      z.custom<RoutingTest>(
        isRoutingTest,
        "is not a routing test: make each with expectRoutes(group, { failure: [...] }) from '@monitor/constructs'",
      ),
    )
    .optional(),
  rateLimit: rateLimitSchema.optional(),
});

export type ConfigInput = z.infer<typeof configSchema>;
export type RateLimitInput = z.infer<typeof rateLimitSchema>;
