import { MAINTENANCE_WINDOW_DEFAULTS, STATUS_PAGE_VISIBILITY_DEFAULTS } from '@monitor/api/definitions';
import type { CheckGroup } from './check-group.js';
import {
  Construct,
  type ConstructOptions,
  FRESH,
  type ProjectConstructRef,
  projectRef,
  type SynthContext,
} from './construct.js';
import { isConstruct, PROP_PATH, SYNTHESIZE } from './session.js';
import { type KindSource, listOf, replaceProp, requestFields, sourceRef, topField } from './source.js';
import type { StatusPageRef, StatusPageServiceRef } from './status-page.js';

export interface StatusPageVisibilityProps {
  /** Show the window on status pages. @default false */
  enabled?: boolean;
  /** The window affects every service. @default false */
  affectAllServices?: boolean;
  /** Suppress automatic incidents during the window. @default false */
  suppressAutoIncidents?: boolean;
  /** Notify subscribers at the start. @default false */
  notifyOnStart?: boolean;
  /** Notify subscribers at the end. @default false */
  notifyOnEnd?: boolean;
  /** Start automatically. @default true */
  autoStart?: boolean;
  /** End automatically. @default true */
  autoEnd?: boolean;
  /** List the affected services. @default true */
  showAffectedServices?: boolean;
  /** Severity shown. @default null */
  severity?: 'MINOR' | 'MEDIUM' | 'MAJOR' | 'CRITICAL' | null;
  /** Reminders, minutes before the start (60 to 10080 each). @default [] */
  reminderMinutesBefore?: number[];
  /** Status pages the window shows on: constructs or `StatusPage.fromId(id)`. @default [] */
  statusPages?: StatusPageRef[];
  /** Services the window affects. @default [] */
  services?: StatusPageServiceRef[];
}

export interface MaintenanceWindowProps {
  /** Name, at most 200 characters. Required; the natural key. */
  name: string;
  /** Start, as a Date or ISO string. */
  startsAt: Date | string;
  /** End, after the start. */
  endsAt: Date | string;
  /** Repeat unit; null for a one-off window. @default null */
  repeatUnit?: 'DAY' | 'WEEK' | 'MONTH' | null;
  /** Repeat every N units, 1 to 365. @default null */
  repeatInterval?: number | null;
  /** When repeating ends. @default null */
  repeatEndsAt?: Date | string | null;
  /** Description, at most 2000 characters. @default null */
  description?: string | null;
  /** Checks and groups the window applies to: tag strings, or `CheckGroup`s (their names). A set. @default [] */
  tags?: (string | CheckGroup)[];
  /** How the window shows on status pages. */
  statusPageVisibility?: StatusPageVisibilityProps;
  /** Pause every check during the window. @default false */
  pauseAllChecks?: boolean;
  /** Silence alerts of checks with these tags. A set. @default [] */
  silenceAlertsTags?: string[];
  /** Silence all alerts. @default false */
  silenceAllAlerts?: boolean;
  /** IANA time zone of the dates; null is UTC. @default null */
  timezone?: string | null;
}

function iso(value: Date | string | null | undefined): string | null | undefined {
  if (!(value instanceof Date)) return value;
  // An invalid Date goes on as text, for the schema to name the field and the expected form.
  return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
}

/** A maintenance window that pauses checks or silences alerts. */
export class MaintenanceWindow extends Construct<MaintenanceWindowProps> {
  readonly kind = 'MaintenanceWindow' as const;

  constructor(logicalId: string, props: MaintenanceWindowProps, options?: ConstructOptions) {
    super(logicalId, props, options);
  }

  /** A maintenance window another project owns (`projectName`), by its logical id there: referred to, never created, changed or deleted. */
  static fromProject(project: string, logicalId: string): ProjectConstructRef<'MaintenanceWindow'> {
    return projectRef('MaintenanceWindow', project, logicalId);
  }

  [SYNTHESIZE](ctx: SynthContext): Record<string, unknown> {
    const { tags, statusPageVisibility, startsAt, endsAt, repeatEndsAt, ...rest } = {
      ...ctx.defaults,
      ...this.props,
    } as MaintenanceWindowProps;
    const { statusPages, services, ...visibility } = statusPageVisibility ?? {};
    return {
      ...FRESH,
      ...MAINTENANCE_WINDOW_DEFAULTS,
      ...rest,
      startsAt: iso(startsAt),
      endsAt: iso(endsAt),
      repeatEndsAt: iso(repeatEndsAt) ?? null,
      tags: (tags ?? []).map((tag, i) => {
        if (typeof tag === 'string') return tag;
        if (isConstruct(tag) && tag.kind === 'CheckGroup' && typeof (tag as CheckGroup).name === 'string') {
          return (tag as CheckGroup).name;
        }
        ctx.problem(
          `tags[${i}]`,
          'must be a tag string or a CheckGroup construct (a fromId or fromProject group has no name here; use its name)',
        );
        return '';
      }),
      statusPageVisibility: {
        ...FRESH,
        ...STATUS_PAGE_VISIBILITY_DEFAULTS,
        ...visibility,
        statusPageIds: (statusPages ?? []).map((p, i) =>
          ctx.ref(p, 'StatusPage', `statusPageVisibility.statusPages[${i}]`),
        ),
        serviceIds: (services ?? []).map((s, i) =>
          ctx.ref(s, 'StatusPageService', `statusPageVisibility.services[${i}]`),
        ),
      },
    };
  }

  override [PROP_PATH](payloadPath: string): string {
    return payloadPath
      .replace('statusPageVisibility.statusPageIds', 'statusPageVisibility.statusPages')
      .replace('statusPageVisibility.serviceIds', 'statusPageVisibility.services');
  }
}

/**
 * A live maintenance window as code: the status pages and services it shows on become references,
 * and a tag that names a check group that is written too becomes that group.
 */
export const maintenanceWindowSource: KindSource = {
  module: 'maintenance-windows',
  source: (live) => {
    const shown = (live.statusPageVisibility ?? {}) as Record<string, unknown>;
    let visibility = requestFields(shown, 'MaintenanceWindow', 'statusPageVisibility');
    visibility = replaceProp(visibility, 'statusPageIds', {
      statusPages: listOf(shown.statusPageIds).map((id) => sourceRef('StatusPage', id)),
    });
    visibility = replaceProp(visibility, 'serviceIds', {
      services: listOf(shown.serviceIds).map((id) => sourceRef('StatusPageService', id)),
    });
    const props = { ...requestFields(live, 'MaintenanceWindow'), statusPageVisibility: visibility };
    return { construct: MaintenanceWindow.name, props };
  },
  namedBy: [{ prop: 'tags', kind: 'CheckGroup' }],
  // The visibility's ids are references to pages and services: it is written again whole.
  propOf: (path) =>
    topField(path) === 'statusPageVisibility'
      ? { prop: 'statusPageVisibility' }
      : { prop: topField(path), path },
};
