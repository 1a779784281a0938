import { fieldName, type KindDefinition } from './definition.js';
import { KIND_FACTS } from './schemas-link.js';
import { withSchemas } from './with-schemas.js';

/** Defaults of a window's `statusPageVisibility`. */
export const STATUS_PAGE_VISIBILITY_DEFAULTS = KIND_FACTS.defaults.STATUS_PAGE_VISIBILITY_DEFAULTS;

/** The documented create defaults of a maintenance window, as its schema declares them; `repeatUnit: null` is a one-off. */
export const MAINTENANCE_WINDOW_DEFAULTS = KIND_FACTS.defaults.MAINTENANCE_WINDOW_DEFAULTS;

export const maintenanceWindowKind: KindDefinition = withSchemas('MaintenanceWindow', {
  noun: 'maintenance window',
  defaults: MAINTENANCE_WINDOW_DEFAULTS,
  displayName: fieldName('name'),
  naturalKey: { fields: ['name'] },
  uniqueKeys: [],
  sensitive: [],
  sets: [
    'tags',
    'silenceAlertsTags',
    'statusPageVisibility.statusPageIds',
    'statusPageVisibility.serviceIds',
  ],
  keyed: {},
  dates: ['startsAt', 'endsAt', 'repeatEndsAt'],
  references: [
    { path: 'statusPageVisibility.statusPageIds[]', kind: 'StatusPage' },
    { path: 'statusPageVisibility.serviceIds[]', kind: 'StatusPageService' },
  ],
  operations: {
    list: 'maintenanceWindowsList',
    get: 'maintenanceWindowsGet',
    create: 'maintenanceWindowsCreate',
    update: 'maintenanceWindowsUpdate',
    delete: 'maintenanceWindowsDelete',
    idParam: 'id',
    idType: 'int',
  },
});
