import { brandedDashboard } from '@acme/monitor-constructs';
import { Dashboard, MaintenanceWindow, StatusPage, StatusPageService } from '@monitor/constructs';
import { checkout, paymentsApi } from '../monitors/groups.monitor';

export const api = new StatusPageService('public-api', { name: 'Public API' });
export const web = new StatusPageService('web-app', { name: 'Web app' });

export const statusPage = new StatusPage('acme-status', {
  name: 'Acme status',
  url: 'acme-example-status',
  description: 'Live status of Acme services.',
  defaultTheme: 'DARK',
  cards: [
    { name: 'APIs', services: [api] },
    { name: 'Apps', services: [web] },
  ],
});

export const dashboard = new Dashboard('ops-dashboard', {
  header: 'Acme operations',
  customUrl: 'acme-example-ops',
  tags: ['prod'],
  refreshRate: 300,
  customCSS: { file: '../assets/dashboard.css' },
});

export const branded = brandedDashboard('acme-branded', 'Acme (branded)', ['acme']);

export const upgrade = new MaintenanceWindow('db-upgrade', {
  name: 'Database upgrade',
  startsAt: '2027-01-10T02:00:00.000Z',
  endsAt: '2027-01-10T04:00:00.000Z',
  tags: [paymentsApi, checkout, 'db'],
  // Only the alerts of the groups the upgrade takes down, by their tags: not the whole account's.
  silenceAlertsTags: ['payments', 'checkout'],
  statusPageVisibility: { enabled: true, statusPages: [statusPage], services: [api] },
});
