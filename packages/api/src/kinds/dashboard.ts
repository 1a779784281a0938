import { type KindDefinition, nonEmptyString } from './definition.js';
import { KIND_FACTS } from './schemas-link.js';
import { withSchemas } from './with-schemas.js';

/** The documented create defaults of a dashboard, as its schema declares them. */
export const DASHBOARD_DEFAULTS = KIND_FACTS.defaults.DASHBOARD_DEFAULTS;

export const dashboardKind: KindDefinition = withSchemas('Dashboard', {
  noun: 'dashboard',
  defaults: DASHBOARD_DEFAULTS,
  displayName: (p) =>
    nonEmptyString(p.header) ?? nonEmptyString(p.customUrl) ?? nonEmptyString(p.customDomain),
  naturalKey: { fields: ['customUrl', 'customDomain'] },
  // Unique across every account of the service.
  uniqueKeys: ['customUrl', 'customDomain'],
  sensitive: [{ path: 'keys[].rawKey' }],
  // A private dashboard's key is whole only in the answer of the write that made it.
  oneTimeValues: [{ path: 'keys[].rawKey', maskedAs: 'maskedKey' }],
  sets: ['tags'],
  keyed: { keys: 'id' },
  dates: [],
  references: [],
  outputs: ['dashboardId', 'customUrl', 'customDomain', 'isPrivate'],
  operations: {
    list: 'dashboardsList',
    get: 'dashboardsGet',
    create: 'dashboardsCreate',
    update: 'dashboardsUpdate',
    delete: 'dashboardsDelete',
    idParam: 'dashboardId',
    idField: 'dashboardId',
    idType: 'string',
  },
});
