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

/** Create the project; returns its directory and a cleanup function. */
export function generateProject(n) {
  const dir = mkdtempSync(join(tmpdir(), `monitor-bench-${n}-`));
  mkdirSync(join(dir, 'node_modules', '@monitor'), { recursive: true });
  symlinkSync(CONSTRUCTS_PACKAGE, join(dir, 'node_modules', '@monitor', 'constructs'), 'dir');
  writeFileSync(
    join(dir, 'monitor.config.ts'),
    "import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'bench' });\n",
  );
  mkdirSync(join(dir, 'monitors'));
  let made = 0;
  let index = 0;
  let file = 0;
  while (made < n) {
    const lines = [
      "import { CheckGroup, Dashboard, EmailAlertChannel, MaintenanceWindow, StatusPage, StatusPageService } from '@monitor/constructs';",
      '',
    ];
    let inFile = 0;
    while (inFile < PER_FILE && made < n) {
      lines.push(construct(index++));
      inFile++;
      made++;
    }
    writeFileSync(
      join(dir, 'monitors', `file-${String(file++).padStart(4, '0')}.monitor.ts`),
      `${lines.join('\n')}\n`,
    );
  }
  return { dir, files: file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
