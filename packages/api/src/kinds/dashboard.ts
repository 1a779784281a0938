import { dashboardCreateSchema, dashboardSchema, dashboardUpdateSchema } from '../schemas/dashboards.js';
import { type KindDefinition, nonEmptyString } from './definition.js';

/** The documented create defaults of a dashboard. */
export const DASHBOARD_DEFAULTS = {
  customDomain: null,
  logo: null,
  favicon: null,
  link: null,
  description: null,
  width: 'FULL' as const,
  refreshRate: 60 as const,
  paginate: true,
  paginationRate: 60 as const,
  checksPerPage: 15,
  useTagsAndOperator: false,
  hideTags: false,
  enableIncidents: false,
  expandChecks: false,
  tags: [] as string[],
  showHeader: true,
  showCheckRunLinks: false,
  showGroupNames: true,
  customCSS: '',
  isPrivate: false,
  showP95: true,
  showP99: true,
  sortByStatus: false,
};

export const dashboardKind: KindDefinition = {
  kind: 'Dashboard',
  noun: 'dashboard',
  createSchema: dashboardCreateSchema,
  updateSchema: dashboardUpdateSchema,
  responseSchema: dashboardSchema,
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
};
