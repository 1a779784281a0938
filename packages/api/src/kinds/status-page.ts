import {
  statusPageCreateSchema,
  statusPageSchema,
  statusPageServerSchema,
  statusPageServiceCreateSchema,
  statusPageServiceSchema,
  statusPageServiceUpdateSchema,
  statusPageUpdateSchema,
} from '../schemas/status-pages.js';
import { fieldName, type KindDefinition } from './definition.js';
import { defaultsOf } from './fields.js';

/** The documented create defaults of a status page, as its schema declares them. */
export const STATUS_PAGE_DEFAULTS = defaultsOf(statusPageCreateSchema);
/** Response-only fields of a status page the service sets. */
export const STATUS_PAGE_SERVER_DEFAULTS = defaultsOf(statusPageServerSchema);

export const statusPageKind: KindDefinition = {
  kind: 'StatusPage',
  noun: 'status page',
  createSchema: statusPageCreateSchema,
  updateSchema: statusPageUpdateSchema,
  responseSchema: statusPageSchema,
  defaults: STATUS_PAGE_DEFAULTS,
  // The service lower-cases urls.
  displayName: fieldName('name'),
  naturalKey: { fields: ['url'], lowerCase: true },
  outputs: ['url', 'customDomain'],
  uniqueKeys: ['url', 'customDomain'],
  sensitive: [],
  sets: [],
  keyed: { cards: 'name', 'cards[].services': 'id' },
  dates: [],
  references: [{ path: 'cards[].services[].id', kind: 'StatusPageService' }],
  operations: {
    list: 'statusPagesList',
    get: 'statusPagesGet',
    create: 'statusPagesCreate',
    update: 'statusPagesUpdate',
    delete: 'statusPagesDelete',
    idParam: 'statusPageId',
    idType: 'string',
  },
};

export const statusPageServiceKind: KindDefinition = {
  kind: 'StatusPageService',
  noun: 'status page service',
  createSchema: statusPageServiceCreateSchema,
  updateSchema: statusPageServiceUpdateSchema,
  responseSchema: statusPageServiceSchema,
  defaults: {},
  displayName: fieldName('name'),
  naturalKey: { fields: ['name'] },
  uniqueKeys: [],
  sensitive: [],
  sets: [],
  keyed: {},
  dates: [],
  references: [],
  operations: {
    list: 'statusPageServicesList',
    get: 'statusPageServicesGet',
    create: 'statusPageServicesCreate',
    update: 'statusPageServicesUpdate',
    delete: 'statusPageServicesDelete',
    idParam: 'serviceId',
    idType: 'string',
    // Services are small: the whole list in one answer, where pages would be read one after another.
    listQuery: { paginated: false },
  },
};
