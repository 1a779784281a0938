// Writes a synthetic monitor project of N constructs that set every field they can, 10 per file.
// Four kinds of construct take turns; with the alert channel each group is subscribed to and the
// service each page shows, N constructs make 1.5 N resources:
// - a check group (env vars, a secret, retry strategy, alert settings, API-check defaults, a
//   subscription) and its email channel;
// - a dashboard with every display option;
// - a status page with three cards of its service;
// - a repeating maintenance window shown on status pages.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONSTRUCTS_PACKAGE = fileURLToPath(new URL('../../constructs', import.meta.url));
const PER_FILE = 10;

function construct(i) {
  return { code: plainConstruct(i), count: 1 };
}

function plainConstruct(i) {
  const team = `team-${i % 7}`;
  switch (i % 4) {
    case 0:
      return `{
  const mail = new EmailAlertChannel('mail-${i}', { address: 'ops-${i}@example.com', sendDegraded: true, sslExpiry: true, sslExpiryThreshold: 14 });
  new CheckGroup('group-${i}', {
    name: 'Group ${i}', tags: ['${team}', 'bench'], locations: ['eu-west-1', 'us-east-1'], concurrency: ${(i % 5) + 1},
    muted: ${i % 2 === 0}, runParallel: true, privateLocations: ['pl-${i % 3}'], runtimeId: '2025.04',
    environmentVariables: [{ key: 'BASE_URL', value: 'https://api-${i}.example.com' }, { key: 'TOKEN', value: 'secret-${i}', secret: true }, { key: 'REGION', value: 'eu', locked: true }],
    retryStrategy: { type: 'LINEAR', baseBackoffSeconds: 30, maxRetries: 3, maxDurationSeconds: 300, sameRegion: false },
    alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 10 }, reminders: { amount: 2, interval: 15 }, parallelRunFailureThreshold: { enabled: true, percentage: 50 } },
    apiCheckDefaults: { url: 'https://api-${i}.example.com', headers: [{ key: 'Accept', value: 'application/json' }], queryParameters: [{ key: 'v', value: '2' }], assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }], basicAuth: { username: 'bench', password: 'pw-${i}' } },
    alertChannels: [{ channel: mail, activated: true }],
    localSetupScript: 'console.log("setup ${i}")', localTearDownScript: null, useGlobalAlertSettings: false,
  });
}`;
    case 1:
      return `new Dashboard('dashboard-${i}', { header: 'Dashboard ${i}', customUrl: 'bench-dashboard-${i}', description: 'Checks of ${team}', tags: ['${team}'], refreshRate: 300, width: '960PX', paginate: false, paginationRate: 30, checksPerPage: 10, useTagsAndOperator: true, hideTags: true, enableIncidents: true, expandChecks: true, showHeader: true, showCheckRunLinks: true, showGroupNames: false, showP95: false, showP99: true, sortByStatus: true, logo: 'https://example.com/logo.png', favicon: 'https://example.com/favicon.ico', link: 'https://example.com', customCSS: '.header { color: #333; }' });`;
    case 2:
      return `{
  const s = new StatusPageService('service-${i}', { name: 'Service ${i}' });
  new StatusPage('page-${i}', { name: 'Page ${i}', url: 'bench-page-${i}', description: 'Status of ${team}', defaultTheme: 'DARK', logo: 'https://example.com/logo.png', favicon: 'https://example.com/favicon.ico', redirectTo: 'https://example.com', cards: [{ name: 'Core', services: [s] }, { name: 'Edge', services: [s] }, { name: 'Data', services: [s] }] });
}`;
    default:
      return `new MaintenanceWindow('window-${i}', { name: 'Window ${i}', description: 'Weekly upkeep of ${team}', startsAt: '2027-01-01T00:00:00.000Z', endsAt: '2027-01-01T02:00:00.000Z', repeatUnit: 'WEEK', repeatInterval: 1, repeatEndsAt: '2028-01-01T00:00:00.000Z', timezone: 'Europe/Amsterdam', tags: ['${team}'], silenceAlertsTags: ['${team}'], pauseAllChecks: false, silenceAllAlerts: true, statusPageVisibility: { enabled: true, notifyOnStart: true, reminderMinutesBefore: [60, 1440], severity: 'MINOR' } });`;
  }
}

/**
 * Create the project; returns its directory and a cleanup function. `constructsPackage`: the
 * @monitor/constructs its node_modules links to (another checkout's, to compare with it).
 */
/**
 * `start`: the index of the first construct, so that projects made for one account (a workspace's)
 * name distinct resources (names, URLs); `projectName` and `parent` (a directory to make it in).
 */
export function generateProject(n, constructsPackage = CONSTRUCTS_PACKAGE, options = {}) {
  return writeProject(
    `monitor-bench-${n}-`,
    constructsPackage,
    n,
    construct,
    [
      "import { CheckGroup, Dashboard, EmailAlertChannel, MaintenanceWindow, StatusPage, StatusPageService } from '@monitor/constructs';",
    ],
    {},
    options,
  );
}

function writeProject(prefix, constructsPackage, n, make, header, extraFiles = {}, options = {}) {
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), prefix));
  mkdirSync(join(dir, 'node_modules', '@monitor'), { recursive: true });
  symlinkSync(constructsPackage, join(dir, 'node_modules', '@monitor', 'constructs'), 'dir');
  writeFileSync(
    join(dir, 'monitor.config.ts'),
    `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${options.projectName ?? 'bench'}' });\n`,
  );
  mkdirSync(join(dir, 'monitors'));
  for (const [path, text] of Object.entries(extraFiles)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  let made = 0;
  let index = options.start ?? 0;
  let file = 0;
  while (made < n) {
    const lines = [...header, ''];
    let inFile = 0;
    while (inFile < PER_FILE && made < n) {
      const { code, count } = make(index++);
      lines.push(code);
      inFile += count;
      made += count;
    }
    writeFileSync(
      join(dir, 'monitors', `file-${String(file++).padStart(4, '0')}.monitor.ts`),
      `${lines.join('\n')}\n`,
    );
  }
  return { dir, files: file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment a rich project needs (its PagerDuty keys come from `requiredEnv`). */
export const RICH_ENV = { BENCH_PAGERDUTY_KEY: 'pd-bench-key' };

/**
 * One of the rich project's units: every construct kind and alert-channel type in turn, each with
 * most of its props set, references to constructs of the same file and to a shared channel of
 * another module, env vars (a secret, a locked one), status-page cards, a setup script read from a
 * file, and a key from `requiredEnv`. Unit i makes `count` constructs.
 */
function richConstruct(i) {
  const team = `team-${i % 7}`;
  const switches = `sendRecovery: true, sendFailure: true, sendDegraded: ${i % 2 === 0}, sslExpiry: true, sslExpiryThreshold: ${(i % 28) + 1}, autoSubscribe: false`;
  const unit = (code, count) => ({ code, count });
  switch (i % 6) {
    case 0:
      return unit(
        `const email${i} = new EmailAlertChannel('email-${i}', { address: 'ops-${i}@example.com', ${switches} });
const slack${i} = new SlackAlertChannel('slack-${i}', { url: 'https://hooks.slack.com/services/T0/B${i}/secret${i}', channel: '#ops-${i % 9}', ${switches} });
const hook${i} = new WebhookAlertChannel('webhook-${i}', { name: 'Hook ${i}', url: 'https://hooks.example.com/${i}', method: 'POST', template: '{"check":"{{CHECK_NAME}}","n":${i}}', webhookSecret: 'whsec-${i}', headers: [{ key: 'x-team', value: '${team}' }, { key: 'authorization', value: 'Bearer t-${i}' }], queryParameters: [{ key: 'source', value: 'monitor' }], ${switches} });
const pd${i} = new PagerdutyAlertChannel('pagerduty-${i}', { serviceKey: requiredEnv('BENCH_PAGERDUTY_KEY'), account: 'acme', serviceName: 'Service ${i}', ${switches} });
const og${i} = new OpsgenieAlertChannel('opsgenie-${i}', { name: 'Opsgenie ${i}', apiKey: 'og-${i}', region: '${i % 2 === 0 ? 'EU' : 'US'}', priority: 'P${(i % 5) + 1}', ${switches} });
new SmsAlertChannel('sms-${i}', { number: '+3161234${String(i).padStart(4, '0').slice(-4)}', name: 'SMS ${i}', ${switches} });
new PhoneCallAlertChannel('call-${i}', { number: '+3161234${String(i).padStart(4, '0').slice(-4)}', name: 'Call ${i}' });
new SlackAppAlertChannel('slack-app-${i}', { slackChannels: ['#ops-${i}', '#alerts'], ${switches} });
export const group${i} = new CheckGroup('group-${i}', {
  name: 'Group ${i}', activated: true, muted: ${i % 3 === 0}, tags: ['${team}', 'rich', 'tier-${i % 3}'], locations: ['eu-west-1', 'us-east-1', 'ap-southeast-1'],
  concurrency: ${(i % 5) + 1}, runParallel: true, privateLocations: ['pl-${i % 3}'], runtimeId: '2025.04', doubleCheck: false,
  environmentVariables: [{ key: 'BASE_URL', value: 'https://api-${i}.example.com' }, { key: 'TOKEN', value: 'secret-${i}', secret: true }, { key: 'REGION', value: 'eu', locked: true }, { key: 'TEAM', value: '${team}' }],
  retryStrategy: { type: 'EXPONENTIAL', baseBackoffSeconds: 10, maxRetries: 4, maxDurationSeconds: 600, sameRegion: true },
  alertSettings: { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 10 }, reminders: { amount: 2, interval: 15 }, parallelRunFailureThreshold: { enabled: true, percentage: 50 } },
  apiCheckDefaults: { url: 'https://api-${i}.example.com', headers: [{ key: 'Accept', value: 'application/json' }, { key: 'x-team', value: '${team}' }], queryParameters: [{ key: 'v', value: '2' }], assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }, { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '2000' }], basicAuth: { username: 'bench', password: 'pw-${i}' } },
  alertChannels: [email${i}, { channel: slack${i}, activated: true }, hook${i}, pd${i}, { channel: og${i}, activated: false }, shared],
  localSetupScript: { file: '../scripts/setup.js' }, localTearDownScript: 'console.log("teardown ${i}")', useGlobalAlertSettings: false,
});`,
        9,
      );
    case 1:
      return unit(
        `new Dashboard('dashboard-${i}', { header: 'Dashboard ${i}', customUrl: 'rich-dashboard-${i}', description: 'Checks of ${team}', tags: ['${team}', 'rich'], refreshRate: 300, width: '960PX', paginate: false, paginationRate: 30, checksPerPage: 10, useTagsAndOperator: true, hideTags: true, enableIncidents: true, expandChecks: true, showHeader: true, showCheckRunLinks: true, showGroupNames: false, showP95: false, showP99: true, sortByStatus: true, isPrivate: false, logo: 'https://example.com/logo.png', favicon: 'https://example.com/favicon.ico', link: 'https://example.com/${i}', customCSS: '.header { color: #${String(i % 1000).padStart(3, '0')}; }' });`,
        1,
      );
    case 2:
      return unit(
        `const api${i} = new StatusPageService('service-api-${i}', { name: 'API ${i}' });
const web${i} = new StatusPageService('service-web-${i}', { name: 'Web ${i}' });
const db${i} = new StatusPageService('service-db-${i}', { name: 'Database ${i}' });
export const page${i} = new StatusPage('page-${i}', { name: 'Page ${i}', url: 'rich-page-${i}', description: 'Status of ${team}', defaultTheme: 'DARK', logo: 'https://example.com/logo.png', logoDark: 'https://example.com/logo-dark.png', favicon: 'https://example.com/favicon.ico', redirectTo: 'https://example.com/${i}', cards: [{ name: 'Core', services: [api${i}, web${i}] }, { name: 'Data', services: [db${i}] }, { name: 'Everything', services: [api${i}, web${i}, db${i}] }] });
new MaintenanceWindow('window-${i}', { name: 'Window ${i}', description: 'Weekly upkeep of ${team}', startsAt: '2027-01-01T00:00:00.000Z', endsAt: '2027-01-01T02:00:00.000Z', repeatUnit: 'WEEK', repeatInterval: 1, repeatEndsAt: '2028-01-01T00:00:00.000Z', timezone: 'Europe/Amsterdam', tags: ['${team}'], silenceAlertsTags: ['${team}'], pauseAllChecks: false, silenceAllAlerts: true, statusPageVisibility: { enabled: true, notifyOnStart: true, notifyOnEnd: true, reminderMinutesBefore: [60, 1440], severity: 'MINOR', statusPages: [page${i}], services: [api${i}, db${i}] } });`,
        5,
      );
    default:
      return unit(
        `new MaintenanceWindow('window-${i}', { name: 'Window ${i}', description: 'Monthly upkeep of ${team}', startsAt: new Date('2027-02-01T00:00:00.000Z'), endsAt: '2027-02-01T04:00:00.000Z', repeatUnit: 'MONTH', repeatInterval: ${(i % 3) + 1}, timezone: 'UTC', tags: ['${team}', 'rich'], silenceAlertsTags: ['${team}'], pauseAllChecks: ${i % 2 === 0}, silenceAllAlerts: false, statusPageVisibility: { enabled: false } });`,
        1,
      );
  }
}

/**
 * A project of about `n` rich constructs (richConstruct), 10 to 20 a file, each file importing a
 * shared alert channel from a module outside the included files.
 */
export function generateRichProject(n, constructsPackage = CONSTRUCTS_PACKAGE) {
  return writeProject(
    `monitor-bench-rich-${n}-`,
    constructsPackage,
    n,
    richConstruct,
    [
      "import { CheckGroup, Dashboard, EmailAlertChannel, MaintenanceWindow, OpsgenieAlertChannel, PagerdutyAlertChannel, PhoneCallAlertChannel, SlackAlertChannel, SlackAppAlertChannel, SmsAlertChannel, StatusPage, StatusPageService, WebhookAlertChannel, requiredEnv } from '@monitor/constructs';",
      "import { shared } from '../shared/channels';",
    ],
    {
      'shared/channels.ts':
        "import { EmailAlertChannel } from '@monitor/constructs';\n\nexport const shared = new EmailAlertChannel('shared-oncall', { address: 'oncall@example.com', sendDegraded: true });\n",
      'scripts/setup.js':
        "// Runs before each API check of the group.\nrequest.headers['x-bench'] = 'rich';\n",
    },
  );
}
