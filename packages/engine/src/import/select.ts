import { RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import type { ByPhysicalId, PhysicalId } from '../identity.js';
import { displayNameOf, type Live, type LiveResource } from '../plan/plan.js';

/** Which resources to import; flags of one kind are OR-ed, different kinds AND-ed. */
export interface ImportFilters {
  kinds?: readonly ResourceKind[];
  /** Physical ids. */
  ids?: readonly string[];
  /** Globs over display names: `*` any run of characters, `?` one. */
  names?: readonly string[];
  tags?: readonly string[];
}

/** A live resource left out of an import because another project owns it. */
export interface OwnedElsewhere {
  kind: ResourceKind;
  physicalId: PhysicalId;
  name?: string;
  project: string;
}

/** A live resource to import. */
export interface Chosen {
  kind: ResourceKind;
  r: LiveResource;
}

/**
 * What is imported: the live resources, kind by kind, that the filters select and nobody owns
 * (`owned`: this project's and those found again for its constructs). Those another project
 * owns are listed apart.
 */
export function selectImported(
  live: Live,
  filters: ImportFilters,
  owned: { has(kind: ResourceKind, id: PhysicalId): boolean },
  otherOwners: ByPhysicalId<string>,
): { chosen: Chosen[]; ownedElsewhere: OwnedElsewhere[] } {
  const chosen: Chosen[] = [];
  const ownedElsewhere: OwnedElsewhere[] = [];
  for (const kind of RESOURCE_KINDS) {
    for (const r of live[kind]) {
      if (owned.has(kind, r.id) || !selected(kind, r, filters)) continue;
      const project = otherOwners.tryFind(kind, r.id);
      if (project === undefined) {
        chosen.push({ kind, r });
        continue;
      }
      const name = displayNameOf(kind, r);
      ownedElsewhere.push({ kind, physicalId: r.id, ...(name === undefined ? {} : { name }), project });
    }
  }
  return { chosen, ownedElsewhere };
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** Whether the filters select a live resource. */
function selected(kind: ResourceKind, r: LiveResource, filters: ImportFilters): boolean {
  if (filters.kinds !== undefined && filters.kinds.length > 0 && !filters.kinds.includes(kind)) return false;
  if (filters.ids !== undefined && filters.ids.length > 0 && !filters.ids.includes(String(r.id)))
    return false;
  if (filters.names !== undefined && filters.names.length > 0) {
    const name = displayNameOf(kind, r) ?? '';
    if (!filters.names.some((glob) => globToRegExp(glob).test(name))) return false;
  }
  if (filters.tags !== undefined && filters.tags.length > 0) {
    const tags = Array.isArray(r.tags) ? r.tags : [];
    if (!filters.tags.some((t) => tags.includes(t))) return false;
  }
  return true;
}
