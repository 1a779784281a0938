import { type Endpoint, endpoints } from '../endpoints.js';
import type { KindDefinition } from './definition.js';
import { KINDS } from './index.js';

// Apart from the kinds' index, which would otherwise load every endpoint's schemas (what only the
// client needs) wherever a kind is read.
const byEndpoint = new Map<Endpoint, KindDefinition>();
for (const def of Object.values(KINDS)) {
  const { create, update, list } = def.operations;
  for (const name of [create, update, list]) byEndpoint.set(endpoints[name], def);
}

/** The kind whose resources an endpoint takes or returns (its create, update or list), if any. */
export function kindOfEndpoint(endpoint: Endpoint): KindDefinition | undefined {
  return byEndpoint.get(endpoint);
}
