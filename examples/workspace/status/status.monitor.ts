import { StatusPage, StatusPageService } from '@monitor/constructs';

export const payments = new StatusPageService('payments', { name: 'Payments' });
export const search = new StatusPageService('search', { name: 'Search' });
export const checkout = new StatusPageService('checkout', { name: 'Checkout' });

export const page = new StatusPage('acme-status', {
  name: 'Acme status',
  url: 'acme-workspace-status',
  cards: [{ name: 'Services', services: [payments, search, checkout] }],
});
