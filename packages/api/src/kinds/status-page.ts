import { fieldName, type KindDefinition } from './definition.js';
import { KIND_FACTS } from './schemas-link.js';
import { withSchemas } from './with-schemas.js';

/** The documented create defaults of a status page, as its schema declares them. */
export const STATUS_PAGE_DEFAULTS = KIND_FACTS.defaults.STATUS_PAGE_DEFAULTS;
/** Response-only fields of a status page the service sets. */
export const STATUS_PAGE_SERVER_DEFAULTS = KIND_FACTS.defaults.STATUS_PAGE_SERVER_DEFAULTS;

export const statusPageKind: KindDefinition = withSchemas('StatusPage', {
  noun: 'status page',
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
});

export const statusPageServiceKind: KindDefinition = withSchemas('StatusPageService', {
  noun: 'status page service',
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
});
