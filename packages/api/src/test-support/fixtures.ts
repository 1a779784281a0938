/** Response bodies that satisfy the response schemas, for client tests. */
export const NOW = '2026-11-21T10:00:00.000Z';
export const UUID1 = '11111111-1111-4111-8111-111111111111';
export const UUID2 = '22222222-2222-4222-8222-222222222222';

export const checkGroup = {
  id: 45,
  name: 'payments',
  activated: true,
  muted: false,
  tags: ['api'],
  locations: ['eu-west-1'],
  concurrency: 3,
  apiCheckDefaults: {
    url: '',
    headers: [],
    queryParameters: [],
    assertions: [],
    basicAuth: { username: '', password: '' },
  },
  runtimeId: null,
  environmentVariables: [{ key: 'TOKEN', value: '', locked: false, secret: true }],
  alertChannelSubscriptions: [{ alertChannelId: 7, activated: true }],
  retryStrategy: 'FALLBACK',
  created_at: '2026-11-21',
  updated_at: NOW,
};

export const dashboard = {
  id: 3,
  dashboardId: 'dash-3',
  created_at: NOW,
  header: 'Status',
  customUrl: 'acme-status',
  tags: [],
  keys: [],
};

export const service = { id: UUID1, name: 'API', accountId: UUID2, created_at: NOW, updated_at: NOW };
export const statusPage = {
  id: UUID2,
  name: 'Acme',
  url: 'acme',
  cards: [{ id: UUID1, name: 'Core', created_at: NOW, updated_at: NOW, services: [service] }],
  defaultTheme: 'AUTO',
  isPrivate: false,
  whiteLabel: false,
};

export const spIncidentUpdate = {
  id: UUID1,
  description: 'Looking into it',
  status: 'INVESTIGATING',
  publicIncidentUpdateDate: NOW,
  created_at: NOW,
  notifySubscribers: false,
};
export const spIncident = {
  id: UUID1,
  name: 'Outage',
  severity: 'MAJOR',
  services: [{ id: UUID1, name: 'API', accountId: UUID2 }],
  incidentUpdates: [spIncidentUpdate],
  created_at: NOW,
};

export const maintenanceWindow = {
  id: 9,
  name: 'Upgrade',
  startsAt: NOW,
  endsAt: '2026-11-21T12:00:00.000Z',
  created_at: '2026-11-21',
  updated_at: null,
  tags: [],
  repeatUnit: null,
};

export const incidentUpdate = {
  id: UUID2,
  status: 'INVESTIGATING',
  description: 'Looking',
  incidentId: UUID1,
  created_at: NOW,
  updated_at: null,
};
export const incident = {
  id: UUID1,
  name: 'Outage',
  impact: 'MINOR',
  dashboardId: 3,
  incidentUpdates: [incidentUpdate],
  created_at: NOW,
  updated_at: null,
};

export const alertChannel = {
  id: 7,
  type: 'EMAIL',
  config: { address: 'ops@example.com' },
  subscriptions: [],
  sendRecovery: true,
  sendFailure: true,
  sendDegraded: false,
  sslExpiry: false,
  sslExpiryThreshold: 30,
  autoSubscribe: false,
  created_at: NOW,
  updated_at: null,
};

export const check = { id: UUID1, checkType: 'API', name: 'GET /health', activated: true, groupId: 45 };

export const triggered = {
  sessions: [
    {
      checkSessionId: UUID2,
      checkSessionLink: 'https://app.example.com/sessions/x',
      checkId: UUID1,
      startedAt: NOW,
      timeElapsed: 0,
      runLocations: ['eu-west-1'],
      name: 'GET /health',
    },
  ],
};

export const checkSession = {
  checkSessionId: UUID2,
  checkSessionLink: 'https://app.example.com/sessions/x',
  checkId: UUID1,
  checkType: 'API',
  name: 'GET /health',
  status: 'PASSED',
  startedAt: NOW,
  stoppedAt: NOW,
  timeElapsed: 1200,
  runLocations: ['eu-west-1'],
  runSource: 'TRIGGER_API',
  results: [
    {
      checkResultId: UUID1,
      checkId: UUID1,
      runLocation: 'eu-west-1',
      resultType: 'FINAL',
      hasErrors: false,
      hasFailures: false,
      isDegraded: false,
    },
  ],
};

export const checkResult = {
  id: UUID1,
  checkId: UUID1,
  runLocation: 'eu-west-1',
  hasFailures: false,
  hasErrors: false,
  apiCheckResult: null,
};

export const apiCheckAnalytics = {
  checkId: UUID1,
  name: 'GET /health',
  checkType: 'API',
  activated: true,
  muted: false,
  frequency: 10,
  from: NOW,
  to: NOW,
  tags: [],
  series: [{ data: [{ responseTime_p95: 120 }] }],
  pagination: { page: 1, limit: 10 },
  metadata: { responseTime_p95: { label: 'Response time p95', unit: 'milliseconds' } },
};

export const summary = [{ checkId: UUID1, checkType: 'API', availability: 99.9 }];

export const errorGroup = {
  id: 'eg-1',
  checkId: UUID1,
  errorHash: 'abc',
  cleanedErrorMessage: 'timeout',
  rawErrorMessage: null,
  firstSeen: NOW,
  lastSeen: NOW,
  archivedUntilNextEvent: false,
  rootCauseAnalyses: [],
};

export const testSessionErrorGroup = {
  id: UUID1,
  environments: null,
  errorHash: 'abc',
  rawErrorMessage: null,
  cleanedErrorMessage: 'boom',
  firstSeen: NOW,
  lastSeen: NOW,
  archivedUntilNextEvent: false,
  pwtMetadata: null,
};

export const rcaPending = { id: 'rca-1', status: 'PENDING' };
export const rcaCompleted = {
  id: 'rca-1',
  checkType: 'PLAYWRIGHT',
  provider: 'acme-ai',
  model: 'm1',
  durationMs: 1500,
  status: 'COMPLETED',
  analysis: {
    classification: 'bug',
    userImpact: 'login fails',
    rootCause: 'null deref',
    codeFix: 'check for null',
    evidence: [{ description: 'trace', artifacts: [{ name: 'trace.zip', type: 'trace' }] }],
    referenceLinks: [{ url: 'https://example.com', title: 'docs' }],
  },
  created_at: NOW,
};

export const plMetrics = { timestamps: [NOW], queueSize: [1], oldestScheduledCheckRun: [0] };
