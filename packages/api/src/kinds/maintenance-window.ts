import {
  maintenanceWindowCreateSchema,
  maintenanceWindowSchema,
  maintenanceWindowUpdateSchema,
  statusPageVisibilitySchema,
} from '../schemas/maintenance-windows.js';
import { fieldName, type KindDefinition } from './definition.js';
import { defaultsOf } from './fields.js';

/** Defaults of a window's `statusPageVisibility`. */
export const STATUS_PAGE_VISIBILITY_DEFAULTS = defaultsOf(statusPageVisibilitySchema);

/** The documented create defaults of a maintenance window, as its schema declares them; `repeatUnit: null` is a one-off. */
export const MAINTENANCE_WINDOW_DEFAULTS = defaultsOf(maintenanceWindowCreateSchema);

export const maintenanceWindowKind: KindDefinition = {
  kind: 'MaintenanceWindow',
  noun: 'maintenance window',
  createSchema: maintenanceWindowCreateSchema,
  updateSchema: maintenanceWindowUpdateSchema,
  responseSchema: maintenanceWindowSchema,
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
};
