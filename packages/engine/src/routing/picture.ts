import type { PictureEdge, PictureNode, RouteChange, RoutePicture } from '../plan/types.js';
import { ALERT_KIND_NAMES, ALERT_KINDS, type AlertKind } from './channels.js';
import { type GroupRoute, reaching } from './routes.js';

export type { PictureEdge, PictureNode, RoutePicture } from '../plan/types.js';

/** About as many nodes as a picture stays readable with; the groups past it are counted in one node. */
export const PICTURE_MAX_NODES = 40;
/** Labels are cut here: a name may be 255 characters. A window's line holds its schedule too. */
const LABEL_MAX = 60;
const WINDOW_LABEL_MAX = 100;
/** How many silencing windows a group's edges name; the rest are counted. */
const WINDOWS_NAMED = 2;

/**
 * One group to draw: its route before a plan (null when the plan creates it) and after. A picture
 * of routes as they are gives the same route twice.
 */
export interface PictureGroup {
  before: GroupRoute | null;
  after: GroupRoute;
}

const NOBODY = 'nobody';

const clip = (text: string, max = LABEL_MAX) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

interface Target {
  label: string;
  /** What names the channel in the code or the account: its logical id, or its id. */
  name: string;
}

/** Who a kind of alert reaches, by channel; failures that reach no channel go to no one. */
function targetsOf(route: GroupRoute | null, kind: AlertKind): Map<string, Target> {
  if (route === null) return new Map();
  const targets = new Map(
    reaching(route, kind).map((s) => [s.channel, { label: s.label, name: s.logicalId ?? s.channel }]),
  );
  if (kind === 'failure' && targets.size === 0) targets.set(NOBODY, { label: 'no one', name: '' });
  return targets;
}

interface Event {
  kinds: AlertKind[];
  before: Map<string, Target>;
  after: Map<string, Target>;
}

/** A group's events: the kinds that reach the same channels, before and after, are one node. */
function eventsOf(group: PictureGroup): Event[] {
  const events = new Map<string, Event>();
  for (const kind of ALERT_KINDS) {
    const before = targetsOf(group.before, kind);
    const after = targetsOf(group.after, kind);
    if (before.size === 0 && after.size === 0) continue;
    const key = `${[...before.keys()].sort().join('\n')}\u0000${[...after.keys()].sort().join('\n')}`;
    const known = events.get(key);
    if (known === undefined) events.set(key, { kinds: [kind], before, after });
    else known.kinds.push(kind);
  }
  return [...events.values()];
}

/** What a group's edges say: the windows that silence it (new in a plan, or no longer). */
function silencingLines({ before, after }: PictureGroup): string[] {
  const was = new Set((before?.silencedBy ?? []).map((w) => w.window));
  const now = new Set(after.silencedBy.map((w) => w.window));
  // In a plan, what the plan changes is said after the cut, so that it always shows.
  const fresh = (window: string) => before !== after && before !== null && !was.has(window);
  const lines = [
    ...after.silencedBy.map(
      (w) =>
        `${clip(`silenced by ${w.name}: ${w.schedule}`, WINDOW_LABEL_MAX)}${fresh(w.window) ? ' (new)' : ''}`,
    ),
    ...(before ?? { silencedBy: [] }).silencedBy
      .filter((w) => !now.has(w.window))
      .map((w) => `no longer silenced by ${clip(w.name)}`),
  ];
  if (lines.length <= WINDOWS_NAMED) return lines;
  const more = lines.length - WINDOWS_NAMED;
  return [...lines.slice(0, WINDOWS_NAMED), `silenced by ${more} more window${more === 1 ? '' : 's'}`];
}

function groupNode(id: string, { before, after }: PictureGroup): PictureNode {
  const lines = [clip(after.logicalId ?? after.group)];
  if (after.name !== after.logicalId) lines.push(clip(after.name));
  if (after.muted) lines.push('muted');
  if (before === null) lines.push('new');
  return { id, kind: 'group', lines, ...(after.noFailureRoute ? { unrouted: true } : {}) };
}

const changeOf = (before: boolean, after: boolean): PictureEdge['change'] =>
  before && after ? 'same' : after ? 'added' : 'removed';

/** The nodes and edges drawn so far, and the channels among them by their name in the routes. */
interface Drawing {
  nodes: PictureNode[];
  edges: PictureEdge[];
  channels: Map<string, string>;
}

/** The channel nodes a group adds to the drawing, at most `room` of them (the rest are left out). */
function channelNodes(
  drawing: Drawing,
  events: Event[],
  room: number,
): { added: PictureNode[]; left: number } {
  const wanted = new Map<string, Target>();
  for (const e of events)
    for (const [key, target] of [...e.before, ...e.after])
      if (!drawing.channels.has(key)) wanted.set(key, target);
  const added: PictureNode[] = [];
  for (const [key, target] of wanted) {
    if (added.length === room) break;
    const id = key === NOBODY ? NOBODY : `c${drawing.channels.size}`;
    drawing.channels.set(key, id);
    added.push({
      id,
      kind: key === NOBODY ? 'nobody' : 'channel',
      lines:
        target.name === '' || target.name === target.label
          ? [clip(target.label)]
          : [clip(target.label), clip(target.name)],
    });
  }
  return { added, left: wanted.size - added.length };
}

function newChannels(drawing: Drawing, events: Event[]): number {
  const keys = new Set<string>();
  for (const e of events) for (const key of [...e.before.keys(), ...e.after.keys()]) keys.add(key);
  return [...keys].filter((k) => !drawing.channels.has(k)).length;
}

/**
 * Draw one group: its node, its events and their channels. False when it does not fit in `room`
 * nodes and something is drawn already; the first group is drawn with the channels that fit.
 */
function drawGroup(drawing: Drawing, group: PictureGroup, index: number, room: number): boolean {
  const events = eventsOf(group);
  const need = 1 + events.length + newChannels(drawing, events);
  if (need > room && drawing.nodes.length > 0) return false;
  const id = `g${index}`;
  drawing.nodes.push(groupNode(id, group));
  // Only a first group too large for the picture loses channels, to a node that counts them.
  const channelRoom = need <= room ? Number.POSITIVE_INFINITY : Math.max(0, room - 2 - events.length);
  const { added, left } = channelNodes(drawing, events, channelRoom);
  const windows = silencingLines(group);
  events.forEach((e, i) => {
    const eventId = `${id}e${i}`;
    drawing.nodes.push({
      id: eventId,
      kind: 'event',
      lines: [e.kinds.map((k) => ALERT_KIND_NAMES[k]).join(', ')],
    });
    const edges: PictureEdge[] = [];
    for (const key of new Set([...e.before.keys(), ...e.after.keys()])) {
      const to = drawing.channels.get(key);
      if (to !== undefined)
        edges.push({ from: eventId, to, change: changeOf(e.before.has(key), e.after.has(key)), lines: [] });
    }
    const all = (change: PictureEdge['change']) =>
      edges.length > 0 && edges.every((edge) => edge.change === change);
    const change = all('added') ? 'added' : all('removed') ? 'removed' : 'same';
    drawing.edges.push({ from: id, to: eventId, change, lines: windows }, ...edges);
  });
  drawing.nodes.push(...added);
  if (left > 0) {
    drawing.nodes.push({
      id: `${id}more`,
      kind: 'more',
      lines: [`and ${left} more channel${left === 1 ? '' : 's'}`],
    });
    drawing.edges.push({ from: id, to: `${id}more`, change: 'same', lines: [] });
  }
  return true;
}

/**
 * Groups → the events they send → channels, with the windows that silence each group on its
 * edges, in at most `max` nodes: the groups past it are counted in an "and N more groups" node.
 * Pure. In a plan's picture (`before` differs from `after`), edges the plan adds or removes say so.
 */
export function routePicture(groups: readonly PictureGroup[], max = PICTURE_MAX_NODES): RoutePicture {
  const drawing: Drawing = { nodes: [], edges: [], channels: new Map() };
  let drawn = 0;
  for (const group of groups) {
    const last = drawn === groups.length - 1;
    if (!drawGroup(drawing, group, drawn, max - drawing.nodes.length - (last ? 0 : 1))) break;
    drawn++;
  }
  const moreGroups = groups.length - drawn;
  if (moreGroups > 0)
    drawing.nodes.push({
      id: 'more',
      kind: 'more',
      lines: [`and ${moreGroups} more group${moreGroups === 1 ? '' : 's'}`],
    });
  return { nodes: drawing.nodes, edges: drawing.edges, moreGroups };
}

/** A picture of routes as they are: each group drawn with the same route before and after. */
export function picturedRoutes(routes: readonly GroupRoute[], max = PICTURE_MAX_NODES): RoutePicture {
  return routePicture(
    routes.map((r) => ({ before: r, after: r })),
    max,
  );
}

/** A plan's picture: the changed groups (in the order of `changes`), each before and after the plan. */
export function picturedChanges(
  changes: readonly RouteChange[],
  before: readonly GroupRoute[],
  after: readonly GroupRoute[],
  max = PICTURE_MAX_NODES,
): RoutePicture {
  const byId = (routes: readonly GroupRoute[]) => new Map(routes.map((r) => [r.logicalId, r]));
  const was = byId(before);
  const will = byId(after);
  const groups: PictureGroup[] = [];
  for (const c of changes) {
    const now = will.get(c.logicalId);
    if (now !== undefined) groups.push({ before: was.get(c.logicalId) ?? null, after: now });
  }
  return routePicture(groups, max);
}
