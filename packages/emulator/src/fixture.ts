import { readFileSync } from 'node:fs';
import { ALERT_CHANNEL_DEFAULTS, formatIssuePath } from '@monitor/api';
import { z } from '@monitor/api/zod';
import type { EmulatorClock } from './clock.js';
import { EmulatorConfigError } from './errors.js';
import type { AccountData, Row } from './store.js';

const loose = z.looseObject({});
/** The seed data of an account: the read-mostly resources plus check outcomes. */
export const fixtureSchema = z.strictObject({
  checks: z.array(z.looseObject({ id: z.uuid(), checkType: z.string(), name: z.string() })).default([]),
  alertChannels: z
    .array(z.looseObject({ id: z.number().int().positive(), type: z.string(), config: loose }))
    .default([]),
  errorGroups: z.array(z.looseObject({ id: z.string(), checkId: z.string() })).default([]),
  testSessionErrorGroups: z.array(z.looseObject({ id: z.string() })).default([]),
  privateLocations: z.array(z.looseObject({ id: z.string(), name: z.string() })).default([]),
  services: z.array(z.looseObject({ id: z.string(), name: z.string() })).default([]),
  statusPageIncidents: z
    .array(
      z.looseObject({
        id: z.string(),
        name: z.string(),
        severity: z.string(),
        incidentUpdates: z.array(loose),
      }),
    )
    .default([]),
  statusPageSubscriptions: z.array(z.looseObject({ id: z.string(), statusPageId: z.string() })).default([]),
  outcomes: z.record(z.string(), z.enum(['PASSED', 'FAILED', 'DEGRADED'])).default({}),
});
export type Fixture = z.input<typeof fixtureSchema>;

export const DEFAULT_FIXTURE_PATH = new URL('../fixtures/default.json', import.meta.url);

export function readFixture(path: string | URL): Fixture {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new EmulatorConfigError(`cannot read fixture ${String(path)}: ${(e as Error).message}`, {
      hint: 'pass a JSON fixture file, or leave it out for the shipped one',
    });
  }
  const parsed = fixtureSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EmulatorConfigError(
      `fixture ${String(path)} is invalid at ${formatIssuePath(issue?.path ?? []) || '(root)'}: ${issue?.message ?? ''}`,
      { hint: 'compare it with the shipped fixtures/default.json' },
    );
  }
  return raw as Fixture;
}

/** Add a fixture's data to an account, with server fields filled in. */
export function applyFixture(
  account: AccountData,
  accountId: string,
  fixture: Fixture,
  clock: EmulatorClock,
): void {
  const f = fixtureSchema.parse(fixture);
  const now = clock.nowIso();
  // Server-set `date` fields go out as dates (addendum §1); a fixture may give them as date-times.
  const today = clock.today();
  const asDate = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : v);
  const t = account.tables;
  for (const c of f.checks) {
    t.checks[c.id] = {
      activated: true,
      muted: false,
      frequency: 10,
      locations: [],
      tags: [],
      groupId: null,
      request: null,
      script: null,
      heartbeat: null,
      created_at: now,
      updated_at: null,
      ...c,
    };
  }
  for (const a of f.alertChannels) {
    t.alertChannels[String(a.id)] = {
      ...ALERT_CHANNEL_DEFAULTS,
      subscriptions: [],
      created_at: now,
      updated_at: null,
      ...a,
    };
    account.counters.alertChannel = Math.max(account.counters.alertChannel ?? 0, a.id);
  }
  for (const g of f.errorGroups)
    t.errorGroups[g.id] = {
      rawErrorMessage: null,
      archivedUntilNextEvent: false,
      rootCauseAnalyses: [],
      ...g,
      firstSeen: asDate(g.firstSeen ?? today),
      lastSeen: asDate(g.lastSeen ?? today),
    };
  for (const g of f.testSessionErrorGroups) {
    t.testSessionErrorGroups[g.id] = {
      environments: null,
      pwtMetadata: null,
      projectId: null,
      rootCauseAnalyses: [],
      ...g,
      firstSeen: asDate(g.firstSeen ?? today),
      lastSeen: asDate(g.lastSeen ?? today),
    };
  }
  for (const p of f.privateLocations) t.privateLocations[p.id] = { ...p };
  for (const s of f.services) t.services[s.id] = { accountId, created_at: today, updated_at: today, ...s };
  for (const i of f.statusPageIncidents) {
    t.statusPageIncidents[i.id] = {
      ...i,
      created_at: asDate(i.created_at ?? today),
      updated_at: asDate(i.updated_at ?? i.created_at ?? today),
      services: ((i.services as Row[] | undefined) ?? []).map((s) => ({
        accountId,
        created_at: today,
        updated_at: today,
        ...(t.services[s.id as string] ?? {}),
        ...s,
      })),
      incidentUpdates: i.incidentUpdates.map((u: Row, n: number) => ({
        id: `${i.id.slice(0, 24)}${String(n).padStart(12, '0')}`,
        status: 'INVESTIGATING',
        notifySubscribers: false,
        publicIncidentUpdateDate: now,
        ...u,
        created_at: asDate(u.created_at ?? today),
      })),
    };
  }
  for (const s of f.statusPageSubscriptions) t.statusPageSubscriptions[s.id] = { ...s };
  Object.assign(account.outcomes, f.outcomes);
}
