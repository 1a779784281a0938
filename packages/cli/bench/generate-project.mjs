// Writes a synthetic monitor project of N constructs: equal shares of check groups, dashboards,
// status pages with their services, and maintenance windows; 10 constructs per file.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONSTRUCTS_PACKAGE = fileURLToPath(new URL('../../constructs', import.meta.url));
const PER_FILE = 10;

function construct(i) {
  switch (i % 4) {
    case 0:
      return `new CheckGroup('group-${i}', { name: 'Group ${i}', tags: ['team-${i % 7}'], locations: ['eu-west-1', 'us-east-1'], concurrency: ${(i % 5) + 1} });`;
    case 1:
      return `new Dashboard('dashboard-${i}', { header: 'Dashboard ${i}', customUrl: 'bench-dashboard-${i}', tags: ['team-${i % 7}'], refreshRate: 300 });`;
    case 2:
      return `{ const s = new StatusPageService('service-${i}', { name: 'Service ${i}' }); new StatusPage('page-${i}', { name: 'Page ${i}', url: 'bench-page-${i}', cards: [{ name: 'Core', services: [s] }] }); }`;
    default:
      return `new MaintenanceWindow('window-${i}', { name: 'Window ${i}', startsAt: '2027-01-01T00:00:00.000Z', endsAt: '2027-01-01T02:00:00.000Z', tags: ['team-${i % 7}'] });`;
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
  // A status page with its service counts as two constructs.
  let made = 0;
  let index = 0;
  let file = 0;
  while (made < n) {
    const lines = [
      "import { CheckGroup, Dashboard, MaintenanceWindow, StatusPage, StatusPageService } from '@monitor/constructs';",
      '',
    ];
    let inFile = 0;
    while (inFile < PER_FILE && made < n) {
      const c = construct(index++);
      const count = index % 4 === 3 ? 2 : 1;
      lines.push(c);
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
