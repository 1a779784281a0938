/**
 * The documented create defaults of each managed resource (spec + addendum §3). The emulator
 * fills them in; the constructs fully default desired payloads with them, so that a prop removed
 * from code means "back to the default".
 */

export const API_CHECK_DEFAULTS_DEFAULT = {
  url: '',
  headers: [] as { key: string; value: string }[],
  queryParameters: [] as { key: string; value: string }[],
  assertions: [] as { source: string; comparison: string; target: string }[],
  basicAuth: { username: '', password: '' },
};

export const ALERT_SETTINGS_DEFAULT = {
  escalationType: 'RUN_BASED' as const,
  runBasedEscalation: { failedRunThreshold: 1 },
  timeBasedEscalation: { minutesFailingThreshold: 5 as const },
  reminders: { amount: 0, interval: 5 as const },
  parallelRunFailureThreshold: { enabled: false, percentage: 10 },
};

/** Fields of a retry-strategy object the service fills when they are absent. */
export const RETRY_STRATEGY_OBJECT_DEFAULTS = { baseBackoffSeconds: 60, sameRegion: true };

export const CHECK_GROUP_DEFAULTS = {
  activated: true,
  muted: false,
  doubleCheck: false,
  runParallel: false,
  concurrency: 3,
  tags: [] as string[],
  locations: [] as string[],
  privateLocations: [] as string[],
  environmentVariables: [] as { key: string; value: string; locked: boolean; secret: boolean }[],
  alertChannelSubscriptions: [] as { alertChannelId: number; activated: boolean }[],
  runtimeId: null,
  setupSnippetId: null,
  tearDownSnippetId: null,
  localSetupScript: null,
  localTearDownScript: null,
  useGlobalAlertSettings: null,
  retryStrategy: 'FALLBACK' as const,
  apiCheckDefaults: API_CHECK_DEFAULTS_DEFAULT,
  alertSettings: ALERT_SETTINGS_DEFAULT,
};

export const ENVIRONMENT_VARIABLE_DEFAULTS = { locked: false, secret: false };
export const SUBSCRIPTION_DEFAULTS = { activated: true };

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

export const STATUS_PAGE_DEFAULTS = {
  description: null,
  customDomain: null,
  logo: null,
  logoDark: null,
  redirectTo: null,
  favicon: null,
  defaultTheme: 'AUTO' as const,
};
/** Response-only fields of a status page the service sets. */
export const STATUS_PAGE_SERVER_DEFAULTS = { isPrivate: false, whiteLabel: false };

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

export const MAINTENANCE_WINDOW_DEFAULTS = {
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

export const ALERT_CHANNEL_DEFAULTS = {
  sendRecovery: true,
  sendFailure: true,
  sendDegraded: false,
  sslExpiry: false,
  sslExpiryThreshold: 30,
  autoSubscribe: false,
};
