// Projects for the shared-budget bench (budget.mjs): each in a directory of its own, every name in
// it carrying the project's, so that many projects deploy into one account side by side.
// - groups: N check groups (one resource each);
// - mixed: N constructs of four kinds in turn, 1.5 resources each as generate-project.mjs makes
//   them: a group with its own email channel, a dashboard, a status page with its service, a
//   maintenance window.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONSTRUCTS_PACKAGE = fileURLToPath(new URL('../../constructs', import.meta.url));
const PER_FILE = 50;

function group(project, i) {
  return `new CheckGroup('group-${i}', { name: '${project} group ${i}', tags: ['${project}'], locations: ['eu-west-1'] });`;
}

function mixed(project, i) {
  switch (i % 4) {
    case 0:
      return `{
  const mail = new EmailAlertChannel('mail-${i}', { address: '${project}-${i}@example.com' });
  new CheckGroup('group-${i}', { name: '${project} group ${i}', tags: ['${project}'], alertChannels: [mail] });
}`;
    case 1:
      return `new Dashboard('dashboard-${i}', { header: '${project} dashboard ${i}', customUrl: '${project}-dashboard-${i}', tags: ['${project}'] });`;
    case 2:
      return `{
  const s = new StatusPageService('service-${i}', { name: '${project} service ${i}' });
  new StatusPage('page-${i}', { name: '${project} page ${i}', url: '${project}-page-${i}', cards: [{ name: 'Core', services: [s] }] });
}`;
    default:
      return `new MaintenanceWindow('window-${i}', { name: '${project} window ${i}', startsAt: '2027-01-01T00:00:00.000Z', endsAt: '2027-01-01T02:00:00.000Z', tags: ['${project}'] });`;
  }
}

const HEADER =
  "import { CheckGroup, Dashboard, EmailAlertChannel, MaintenanceWindow, StatusPage, StatusPageService } from '@monitor/constructs';";

/**
 * A project named `project` of `n` constructs (`kind`: groups or mixed), whose config says the
 * account's limit when `rateLimit` is given; returns its directory and how to remove it.
 */
export function budgetProject(project, n, kind = 'groups', rateLimit = undefined) {
  const dir = mkdtempSync(join(tmpdir(), `monitor-bench-budget-${project}-`));
  mkdirSync(join(dir, 'node_modules', '@monitor'), { recursive: true });
  symlinkSync(CONSTRUCTS_PACKAGE, join(dir, 'node_modules', '@monitor', 'constructs'), 'dir');
  const limit = rateLimit === undefined ? '' : `, rateLimit: ${JSON.stringify(rateLimit)}`;
  writeFileSync(
    join(dir, 'monitor.config.ts'),
    `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${project}'${limit} });\n`,
  );
  mkdirSync(join(dir, 'monitors'));
  const make = kind === 'mixed' ? mixed : group;
  for (let start = 0, file = 0; start < n; start += PER_FILE, file++) {
    const lines = [HEADER, ''];
    for (let i = start; i < Math.min(n, start + PER_FILE); i++) lines.push(make(project, i));
    writeFileSync(
      join(dir, 'monitors', `file-${String(file).padStart(3, '0')}.monitor.ts`),
      `${lines.join('\n')}\n`,
    );
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
