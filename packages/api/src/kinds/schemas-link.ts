import { KIND_SCHEMAS } from '../kind-schemas.js';
import { deriveKindFacts } from './derive-facts.js';

/**
 * Where the kinds' definitions get their schemas, and what they read of them as data (defaults,
 * field paths). This module is the sources' version: it imports the schemas and derives the facts
 * when it loads. The build replaces its compiled form (scripts/link-kind-schemas.mjs) with one
 * that holds the facts as a literal and takes the schemas from the registry `kind-schemas.js` (an
 * entry of its own, with zod) fills as it loads (kinds/schema-registry.ts), else loads it on the
 * first call of `kindSchemas` with `require` (Node ≥ 20.19 and ≥ 22.12 load an ES module so,
 * synchronously, the same instance as an `import` of it). Both versions export the same.
 */
export const kindSchemas = (): typeof KIND_SCHEMAS => KIND_SCHEMAS;

export const KIND_FACTS = deriveKindFacts();
