import { type Client, inSchemaOrder, KINDS, lenient, RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import type { Live, LiveResource } from '../plan/plan.js';

/** Every live resource of one kind, through its list endpoint (`limit=100`, one call per page). */
export async function readKind(client: Pick<Client, 'managed'>, kind: ResourceKind): Promise<LiveResource[]> {
  const out: LiveResource[] = [];
  for await (const page of client.managed(kind).pages()) out.push(...page.items);
  return out;
}

/** A live account with nothing of any kind. */
export function emptyLive(): Live {
  return Object.fromEntries(RESOURCE_KINDS.map((k) => [k, [] as LiveResource[]])) as unknown as Live;
}

/**
 * Read the live account: every resource of `kinds` (by default every managed kind), the kinds in
 * parallel. The list endpoints return whole resources, so no per-resource GET is needed.
 * Kinds not read are empty.
 */
export async function readLive(
  client: Pick<Client, 'managed'>,
  kinds: readonly ResourceKind[] = RESOURCE_KINDS,
): Promise<Live> {
  const live = emptyLive();
  await Promise.all(
    kinds.map(async (kind) => {
      live[kind] = await readKind(client, kind);
    }),
  );
  return live;
}

/**
 * The account with each resource's fields in the order its kind's schema declares them: what code
 * written from it (import, pull) lists them in, whatever order the service sent them in (the
 * client hands bodies back as they came).
 */
export function inDeclaredOrder(live: Live): Live {
  const ordered = emptyLive();
  for (const kind of RESOURCE_KINDS) {
    const schema = lenient(KINDS[kind].responseSchema);
    ordered[kind] = live[kind].map((r) => inSchemaOrder(schema, r) as LiveResource);
  }
  return ordered;
}
