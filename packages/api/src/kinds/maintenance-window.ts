import {
  maintenanceWindowCreateSchema,
  maintenanceWindowSchema,
  maintenanceWindowUpdateSchema,
} from '../schemas/maintenance-windows.js';
import { fieldName, type KindDefinition } from './definition.js';

/** Defaults of a window's `statusPageVisibility`. */
export const STATUS_PAGE_VISIBILITY_DEFAULTS = {
  enabled: false,
  affectAllServices: false,
  suppressAutoIncidents: false,
  notifyOnStart: false,
  notifyOnEnd: false,
  autoStart: true,
  autoEnd: true,
  showAffectedServices: true,
  severity: null,
  reminderMinutesBefore: [] as number[],
  statusPageIds: [] as string[],
  serviceIds: [] as string[],
};

/** The documented create defaults of a maintenance window; `repeatUnit: null` is a one-off. */
export const MAINTENANCE_WINDOW_DEFAULTS = {
  repeatUnit: null,
  tags: [] as string[],
  silenceAlertsTags: [] as string[],
  pauseAllChecks: false,
  silenceAllAlerts: false,
  repeatInterval: null,
  repeatEndsAt: null,
  description: null,
  timezone: null,
  statusPageVisibility: STATUS_PAGE_VISIBILITY_DEFAULTS,
};

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
