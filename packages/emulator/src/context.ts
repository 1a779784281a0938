import { randomUUID } from 'node:crypto';
import type { KindDefinition } from '@monitor/api';
import type { EmulatorClock } from './clock.js';
import { conflict, HttpProblem, notFound } from './problem.js';
import type { AccountData, Row, Store, Table, TableName } from './store.js';

export interface EmulatorState {
  readonly store: Store;
  readonly clock: EmulatorClock;
  /** How long a root cause analysis requested now stays PENDING, in emulator time; null: for ever. */
  rcaDurationMs: number | null;
  /** Check sessions and root cause analyses kept per account; the oldest are forgotten beyond it. */
  readonly historySize: number;
  /** Public base URL, for links in check sessions. */
  url: string;
}

/** One validated request to a service route. */
export interface Call {
  // biome-ignore lint/suspicious/noExplicitAny: validated by the endpoint's schema before the handler runs
  params: any;
  // biome-ignore lint/suspicious/noExplicitAny: validated by the endpoint's schema before the handler runs
  query: any;
  // biome-ignore lint/suspicious/noExplicitAny: validated by the endpoint's schema before the handler runs
  body: any;
  accountId: string;
  account: AccountData;
  emu: EmulatorState;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (call: Call) => Answer | Promise<Answer>;

export const ok = (body: unknown, status = 200, headers?: Record<string, string>): Answer => ({
  status,
  body,
  ...(headers === undefined ? {} : { headers }),
});
export const noContent = (): Answer => ({ status: 204 });

export const uuid = (): string => randomUUID();

export function table(call: Call, name: TableName): Table {
  return call.account.tables[name];
}

export function mustGet(t: Table, id: string | number, what: string): Row {
  const row = t[String(id)];
  if (row === undefined) throw notFound(`${what} ${id}`);
  return row;
}

/** Delete a row, 404 when it is not there; answers 204. */
export function removeOr404(t: Table, id: string | number, what: string): Answer {
  mustGet(t, id, what);
  delete t[String(id)];
  return noContent();
}

/**
 * Some values are unique across every account (dashboard customUrl/customDomain, status page
 * url/customDomain): 409 when another resource of `tableName`, in any account, has one.
 */
export function assertUniqueAcrossAccounts(
  call: Call,
  tableName: TableName,
  fields: readonly string[],
  body: Row,
  self?: Row,
): void {
  for (const field of fields) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    for (const account of Object.values(call.emu.store.data.accounts)) {
      for (const row of Object.values(account.tables[tableName])) {
        if (row !== self && row[field] === value)
          throw conflict(`${field} "${String(value)}" is already taken`);
      }
    }
  }
}

/** Sets come back sorted: a client must not depend on the order it sent. */
export function asSet(values: unknown): unknown {
  return Array.isArray(values) ? [...new Set(values as string[])].sort() : values;
}

/** A copy of `body` with every set of the kind (nested ones too) as the service returns it: sorted. */
export function withSortedSets(kind: KindDefinition, body: Row): Row {
  const out: Row = { ...body };
  for (const path of kind.sets) {
    const keys = path.split('.');
    let holder: Row = out;
    for (const key of keys.slice(0, -1)) {
      const next = holder[key];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) break;
      holder[key] = { ...(next as Row) };
      holder = holder[key] as Row;
    }
    const last = keys[keys.length - 1] as string;
    if (Array.isArray(holder[last])) holder[last] = asSet(holder[last]);
  }
  return out;
}

/** The kind's top-level list fields (sets and keyed lists): a PUT ignores `null` for them. */
function listFields(kind: KindDefinition): string[] {
  return [...kind.sets, ...Object.keys(kind.keyed)].filter(
    (path) => !path.includes('.') && !path.includes('['),
  );
}

/**
 * A partial update, as the service does it: omitted fields stay, `null` clears a scalar or
 * object, `null` for an array is ignored, a sent array or object replaces the old one whole.
 */
export function applyPartial(row: Row, body: Row, kind: KindDefinition): void {
  const lists = listFields(kind);
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value === null && lists.includes(key)) continue;
    row[key] = value;
  }
}

/** Page-based list answer: bare array plus `Content-Range`; only the page's rows are rendered. */
export function pageAnswer(
  rows: Row[],
  query: { limit?: number; page?: number },
  render: (row: Row) => unknown = (row) => row,
): Answer {
  const limit = query.limit ?? 10;
  const page = Math.max(1, query.page ?? 1);
  const start = (page - 1) * limit;
  const slice = rows.slice(start, start + limit).map(render);
  const range =
    slice.length === 0 ? `*/${rows.length}` : `${start}-${start + slice.length - 1}/${rows.length}`;
  return ok(slice, 200, { 'content-range': range });
}

/** Cursor-based list answer: `{length, entries, nextId}`; the cursor names the next entry. */
export function cursorAnswer(rows: Row[], query: { limit?: number; nextId?: string }, all = false): Answer {
  const limit = all ? rows.length : (query.limit ?? 20);
  let start = 0;
  if (query.nextId !== undefined) {
    const id = Buffer.from(query.nextId, 'base64url').toString('utf8');
    start = rows.findIndex((r) => r.id === id);
    if (start < 0)
      throw new HttpProblem(400, '"nextId" is not a valid cursor', {
        validation: { source: 'query', keys: ['nextId'] },
      });
  }
  const entries = rows.slice(start, start + limit);
  const next = rows[start + limit];
  return ok({
    length: entries.length,
    entries,
    nextId: next === undefined ? null : Buffer.from(String(next.id), 'utf8').toString('base64url'),
  });
}

/** Fill missing fields of `value` from `defaults`, one level deep. */
export function withDefaults<T extends Row>(defaults: T, value: Row | undefined): T {
  return { ...defaults, ...(value ?? {}) } as T;
}
