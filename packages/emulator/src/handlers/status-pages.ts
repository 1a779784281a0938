import { KINDS, STATUS_PAGE_DEFAULTS, STATUS_PAGE_SERVER_DEFAULTS } from '@monitor/api';
import {
  type Answer,
  assertUniqueAcrossAccounts,
  type Call,
  cursorAnswer,
  mustGet,
  noContent,
  ok,
  removeOr404,
  table,
  uuid,
} from '../context.js';
import { conflict, HttpProblem, notFound } from '../problem.js';
import type { Row } from '../store.js';

/** Cards as stored: service ids only; rendered with the services' current fields. */
function storeCards(call: Call, cards: Row[], statusPageId: string, previous: Row[] = []): Row[] {
  const services = table(call, 'services');
  const now = call.emu.clock.today();
  return cards.map((card) => {
    for (const s of card.services as { id: string }[]) {
      if (services[s.id] === undefined) throw notFound(`Service ${s.id}`);
    }
    const id = (card.id as string | undefined) ?? uuid();
    const before = previous.find((p) => p.id === id);
    return {
      id,
      name: card.name,
      statusPageId,
      serviceIds: (card.services as { id: string }[]).map((s) => s.id),
      created_at: before?.created_at ?? now,
      updated_at: now,
    };
  });
}

function render(call: Call, row: Row): Row {
  const services = table(call, 'services');
  const { cards, ...rest } = row;
  return {
    ...rest,
    accountId: call.accountId,
    cards: (cards as Row[]).map(({ serviceIds, statusPageId: _sp, ...card }) => ({
      ...card,
      services: (serviceIds as string[]).map((id) => services[id]).filter((s) => s !== undefined),
    })),
  };
}

function servicesInUse(call: Call, serviceId: string): boolean {
  return Object.values(table(call, 'statusPages')).some((p) =>
    (p.cards as Row[]).some((c) => (c.serviceIds as string[]).includes(serviceId)),
  );
}

export const statusPageHandlers = {
  'statusPages.list': (call: Call): Answer => {
    const answer = cursorAnswer(Object.values(table(call, 'statusPages')), call.query);
    const body = answer.body as { entries: Row[] };
    body.entries = body.entries.map((p) => render(call, p));
    return answer;
  },

  'statusPages.create': (call: Call): Answer => {
    const body: Row = { ...(call.body as Row), url: (call.body.url as string).toLowerCase() };
    assertUniqueAcrossAccounts(call, 'statusPages', KINDS.StatusPage.uniqueKeys, body);
    const id = uuid();
    const now = call.emu.clock.today();
    const row: Row = {
      id,
      ...STATUS_PAGE_DEFAULTS,
      ...STATUS_PAGE_SERVER_DEFAULTS,
      ...body,
      cards: storeCards(call, body.cards as Row[], id),
      created_at: now,
      updated_at: null,
    };
    table(call, 'statusPages')[id] = row;
    return ok(render(call, row), 201);
  },

  'statusPages.get': (call: Call): Answer =>
    ok(render(call, mustGet(table(call, 'statusPages'), call.params.statusPageId, 'Status page'))),

  'statusPages.update': (call: Call): Answer => {
    const row = mustGet(table(call, 'statusPages'), call.params.statusPageId, 'Status page');
    const body: Row = { ...(call.body as Row), url: (call.body.url as string).toLowerCase() };
    assertUniqueAcrossAccounts(call, 'statusPages', KINDS.StatusPage.uniqueKeys, body, row);
    const cards = storeCards(call, body.cards as Row[], row.id as string, row.cards as Row[]);
    for (const [key, value] of Object.entries(body))
      if (key !== 'cards' && value !== undefined) row[key] = value;
    row.cards = cards;
    row.updated_at = call.emu.clock.today();
    return ok(render(call, row));
  },

  'statusPages.delete': (call: Call): Answer => {
    const answer = removeOr404(table(call, 'statusPages'), call.params.statusPageId, 'Status page');
    // Its subscriptions go with it.
    const subs = table(call, 'statusPageSubscriptions');
    for (const sub of Object.values(subs))
      if (sub.statusPageId === call.params.statusPageId) delete subs[sub.id as string];
    return answer;
  },

  'statusPages.deleteSubscription': (call: Call): Answer => {
    // Errors of this operation carry `attributes` (shape B).
    const attributes = { statusPageId: call.params.statusPageId, subscriptionId: call.params.subscriptionId };
    if (table(call, 'statusPages')[call.params.statusPageId] === undefined) {
      throw new HttpProblem(404, `Status page ${call.params.statusPageId} not found`, { attributes });
    }
    const subs = table(call, 'statusPageSubscriptions');
    const sub = subs[call.params.subscriptionId];
    if (sub === undefined || sub.statusPageId !== call.params.statusPageId) {
      throw new HttpProblem(404, `Subscription ${call.params.subscriptionId} not found`, { attributes });
    }
    delete subs[call.params.subscriptionId];
    return noContent();
  },

  'statusPageServices.list': (call: Call): Answer =>
    cursorAnswer(Object.values(table(call, 'services')), call.query, call.query.paginated === false),

  'statusPageServices.create': (call: Call): Answer => {
    const now = call.emu.clock.today();
    const row: Row = {
      id: uuid(),
      name: call.body.name,
      accountId: call.accountId,
      created_at: now,
      updated_at: now,
    };
    table(call, 'services')[row.id as string] = row;
    return ok(row, 200);
  },

  'statusPageServices.get': (call: Call): Answer =>
    ok(mustGet(table(call, 'services'), call.params.serviceId, 'Service')),

  'statusPageServices.update': (call: Call): Answer => {
    const row = mustGet(table(call, 'services'), call.params.serviceId, 'Service');
    row.name = call.body.name;
    row.updated_at = call.emu.clock.today();
    return ok(row);
  },

  'statusPageServices.delete': (call: Call): Answer => {
    const services = table(call, 'services');
    mustGet(services, call.params.serviceId, 'Service');
    if (servicesInUse(call, call.params.serviceId)) {
      throw conflict(
        `Service ${call.params.serviceId} is still shown on a status page; remove it from the cards first`,
      );
    }
    delete services[call.params.serviceId];
    return noContent();
  },
};
