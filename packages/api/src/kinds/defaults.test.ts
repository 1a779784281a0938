import { describe, expect, it } from 'vitest';
import { dashboardWidthSchema, optionalAll } from '../schemas/common.js';
import { withDefault, withFieldDefaults } from '../schemas/field-default.js';
import { z } from '../zod.js';
import { ALERT_CHANNEL_DEFAULTS } from './alert-channel.js';
import { ALERT_SETTINGS_DEFAULT, API_CHECK_DEFAULTS_DEFAULT, CHECK_GROUP_DEFAULTS } from './check-group.js';
import { DASHBOARD_DEFAULTS } from './dashboard.js';
import { defaultsOf } from './derive-facts.js';
import { KINDS } from './index.js';
import { MAINTENANCE_WINDOW_DEFAULTS, STATUS_PAGE_VISIBILITY_DEFAULTS } from './maintenance-window.js';
import { STATUS_PAGE_DEFAULTS, STATUS_PAGE_SERVER_DEFAULTS } from './status-page.js';

const fields = {
  name: z.string(),
  width: withDefault(dashboardWidthSchema, 'FULL'),
  note: withDefault(z.string().nullable(), null),
  tags: withDefault(z.array(z.string()), []),
  limits: withFieldDefaults(
    z.strictObject({
      amount: withDefault(z.number(), 0).optional(),
      window: withDefault(z.strictObject({ minutes: z.number() }), { minutes: 5 }).optional(),
      label: z.string().optional(),
    }),
  ),
};
const create = z.strictObject({ name: fields.name, ...optionalAll(fields, ['name']) });

describe('a field’s default, declared beside its type', () => {
  it('is read back by field, through .optional(), in the order the fields are declared', () => {
    const defaults = defaultsOf(create);
    expect(defaults).toEqual({
      width: 'FULL',
      note: null,
      tags: [],
      limits: { amount: 0, window: { minutes: 5 } },
    });
    expect(Object.keys(defaults)).toEqual(['width', 'note', 'tags', 'limits']);
  });

  it('is read from every variant of a union', () => {
    const shared = { muted: withDefault(z.boolean(), false).optional() };
    const union = z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('A'), a: withDefault(z.number(), 1).optional(), ...shared }),
      z.strictObject({ type: z.literal('B'), ...shared }),
    ]);
    expect(defaultsOf(union)).toEqual({ a: 1, muted: false });
  });

  it('changes neither parsing nor the JSON schema: a create left without it sends nothing for it', () => {
    const plain = z.strictObject({ name: z.string(), width: dashboardWidthSchema.optional() });
    const declared = z.strictObject({ name: z.string(), width: fields.width.optional() });
    expect(declared.parse({ name: 'n' })).toEqual({ name: 'n' });
    expect(create.parse({ name: 'n' })).toEqual({ name: 'n' });
    expect(declared.safeParse({ name: 'n', width: 'WIDE' }).success).toBe(false);
    expect(z.toJSONSchema(declared)).toEqual(z.toJSONSchema(plain));
  });

  it('leaves a shared schema it is declared on as it was', () => {
    expect(defaultsOf(z.strictObject({ width: dashboardWidthSchema }))).toEqual({});
  });

  it('is where every kind’s documented defaults come from', () => {
    expect(KINDS.Dashboard.defaults).toBe(DASHBOARD_DEFAULTS);
    expect(KINDS.CheckGroup.defaults).toBe(CHECK_GROUP_DEFAULTS);
    expect(KINDS.MaintenanceWindow.defaults).toBe(MAINTENANCE_WINDOW_DEFAULTS);
    expect(KINDS.StatusPage.defaults).toBe(STATUS_PAGE_DEFAULTS);
    expect(KINDS.AlertChannel.defaults).toBe(ALERT_CHANNEL_DEFAULTS);
    expect(CHECK_GROUP_DEFAULTS.apiCheckDefaults).toEqual(API_CHECK_DEFAULTS_DEFAULT);
    expect(CHECK_GROUP_DEFAULTS.alertSettings).toEqual(ALERT_SETTINGS_DEFAULT);
    expect(MAINTENANCE_WINDOW_DEFAULTS.statusPageVisibility).toEqual(STATUS_PAGE_VISIBILITY_DEFAULTS);
  });

  // The values of the service API contract (spec and addendum §3), which the declarations must keep.
  it('keeps the contract’s values', () => {
    expect(DASHBOARD_DEFAULTS).toMatchObject({
      width: 'FULL',
      refreshRate: 60,
      paginate: true,
      paginationRate: 60,
      checksPerPage: 15,
      useTagsAndOperator: false,
      customCSS: '',
      showHeader: true,
      showGroupNames: true,
      showP95: true,
      showP99: true,
    });
    expect(CHECK_GROUP_DEFAULTS).toMatchObject({
      activated: true,
      muted: false,
      concurrency: 3,
      runParallel: false,
      doubleCheck: false,
      retryStrategy: 'FALLBACK',
    });
    expect(ALERT_CHANNEL_DEFAULTS).toEqual({
      sendRecovery: true,
      sendFailure: true,
      sendDegraded: false,
      sslExpiry: false,
      sslExpiryThreshold: 30,
      autoSubscribe: false,
    });
    expect(STATUS_PAGE_DEFAULTS).toMatchObject({ defaultTheme: 'AUTO', description: null });
    expect(STATUS_PAGE_SERVER_DEFAULTS).toEqual({ isPrivate: false, whiteLabel: false });
    expect(MAINTENANCE_WINDOW_DEFAULTS).toMatchObject({
      repeatUnit: null,
      statusPageVisibility: { autoStart: true },
    });
  });
});
