import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fakes of the GitHub and GitLab REST endpoints that `--comment` uses: test doubles of SaaS we
 * cannot run, on loopback port 0. Each keeps its comments in memory and records every request,
 * body included, so tests can count writes and search what was sent.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeComment {
  id: number;
  body: string;
  /** For GitLab commit notes: the discussion holding it. */
  discussion?: string;
}

/** A canned answer for the next request that matches; the fake's own behaviour otherwise. */
export interface InjectedFailure {
  method?: string;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: 'open' | 'closed';
}

export interface FakeCodeHost {
  url: string;
  /** The repository's issues (GitHub) or the project's (GitLab). */
  issues: FakeIssue[];
  requests: RecordedRequest[];
  /** Comments per thread: `pr:12`, `commit:<sha>` (GitHub), `mr:3`, `commit:<sha>` (GitLab). */
  threads: Map<string, FakeComment[]>;
  /** Pull or merge requests that a commit belongs to. */
  commitPulls: Map<string, { number: number; merged: boolean }[]>;
  failures: InjectedFailure[];
  writes(): RecordedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

/** A page of `items` as both hosts paginate: `page` and `per_page`, and a `Link: rel="next"`. */
function page<T>(items: T[], url: URL, origin: string): { items: T[]; headers: Record<string, string> } {
  const perPage = Number(url.searchParams.get('per_page') ?? url.searchParams.get('perPage') ?? 30);
  const pageNo = Number(url.searchParams.get('page') ?? 1);
  const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage);
  if (pageNo * perPage >= items.length) return { items: slice, headers: {} };
  const next = new URL(url.pathname + url.search, origin);
  next.searchParams.set('page', String(pageNo + 1));
  next.searchParams.set('per_page', String(perPage));
  return { items: slice, headers: { link: `<${next.href}>; rel="next"` } };
}

async function start(
  handle: (
    req: RecordedRequest,
    url: URL,
    host: FakeCodeHost,
    res: ServerResponse,
    newId: () => number,
  ) => void,
): Promise<FakeCodeHost> {
  let nextId = 1000;
  const host: FakeCodeHost = {
    url: '',
    issues: [],
    requests: [],
    threads: new Map(),
    commitPulls: new Map(),
    failures: [],
    writes: () => host.requests.filter((r) => r.method !== 'GET'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const recorded = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
    host.requests.push(recorded);
    const at = host.failures.findIndex((f) => f.method === undefined || f.method === recorded.method);
    if (at >= 0) {
      const [failure] = host.failures.splice(at, 1);
      if (failure !== undefined) {
        send(res, failure.status, failure.body ?? { message: `injected ${failure.status}` }, failure.headers);
        return;
      }
    }
    handle(recorded, new URL(recorded.path, host.url), host, res, () => nextId++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return host;
}

function thread(host: FakeCodeHost, key: string): FakeComment[] {
  let comments = host.threads.get(key);
  if (comments === undefined) {
    comments = [];
    host.threads.set(key, comments);
  }
  return comments;
}

function findComment(host: FakeCodeHost, id: number): FakeComment | undefined {
  for (const comments of host.threads.values()) {
    const found = comments.find((c) => c.id === id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** GitHub's REST API under `prefix` (`''` as on api.github.com, `/api/v3` as on GitHub Enterprise). */
export function fakeGitHub(prefix = ''): Promise<FakeCodeHost> {
  return start((req, url, host, res, newId) => {
    if (req.headers.authorization !== 'token gh-test-token') {
      send(res, 401, { message: 'Bad credentials' });
      return;
    }
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : '';
    const json = () => JSON.parse(req.body || '{}') as { body?: string };
    const asGitHubIssue = (i: FakeIssue) => ({
      number: i.number,
      title: i.title,
      body: i.body,
      state: i.state,
      labels: i.labels.map((name) => ({ name })),
      html_url: `https://github.test/issues/${i.number}`,
    });
    const asGitHub = (c: FakeComment) => ({
      id: c.id,
      body: c.body,
      html_url: `https://github.test/comment/${c.id}`,
    });
    let m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path);
    if (m !== null) {
      const comments = thread(host, `pr:${m[1]}`);
      if (req.method === 'GET') {
        const { items, headers } = page(comments, url, host.url);
        send(res, 200, items.map(asGitHub), headers);
      } else {
        const comment = { id: newId(), body: json().body ?? '' };
        comments.push(comment);
        send(res, 201, asGitHub(comment));
      }
      return;
    }
    m = /^\/repos\/[^/]+\/[^/]+\/(?:issues\/)?comments\/(\d+)$/.exec(path);
    if (m !== null && req.method === 'PATCH') {
      const comment = findComment(host, Number(m[1]));
      if (comment === undefined) return send(res, 404, { message: 'Not Found' });
      comment.body = json().body ?? '';
      send(res, 200, asGitHub(comment));
      return;
    }
    if (/^\/repos\/[^/]+\/[^/]+\/issues$/.test(path)) {
      if (req.method === 'GET') {
        const label = url.searchParams.get('labels');
        const state = url.searchParams.get('state') ?? 'open';
        const found = host.issues.filter(
          (i) => (state === 'all' || i.state === state) && (label === null || i.labels.includes(label)),
        );
        const { items, headers } = page(found, url, host.url);
        send(res, 200, items.map(asGitHubIssue), headers);
      } else {
        const input = JSON.parse(req.body) as { title: string; body?: string; labels?: string[] };
        const issue: FakeIssue = {
          number: host.issues.length + 1,
          title: input.title,
          body: input.body ?? '',
          labels: input.labels ?? [],
          state: 'open',
        };
        host.issues.push(issue);
        send(res, 201, asGitHubIssue(issue));
      }
      return;
    }
    m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)$/.exec(path);
    if (m !== null && req.method === 'PATCH') {
      const issue = host.issues.find((i) => i.number === Number(m?.[1]));
      if (issue === undefined) return send(res, 404, { message: 'Not Found' });
      const input = JSON.parse(req.body) as { body?: string; state?: 'open' | 'closed' };
      if (input.body !== undefined) issue.body = input.body;
      if (input.state !== undefined) issue.state = input.state;
      send(res, 200, asGitHubIssue(issue));
      return;
    }
    m = /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]+)\/pulls$/.exec(path);
    if (m !== null) {
      const pulls = host.commitPulls.get(m[1] ?? '') ?? [];
      send(
        res,
        200,
        pulls.map((p) => ({ number: p.number, merged_at: p.merged ? '2026-11-23T00:00:00Z' : null })),
      );
      return;
    }
    m = /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]+)\/comments$/.exec(path);
    if (m !== null) {
      const comments = thread(host, `commit:${m[1]}`);
      if (req.method === 'GET') {
        const { items, headers } = page(comments, url, host.url);
        send(res, 200, items.map(asGitHub), headers);
      } else {
        const comment = { id: newId(), body: json().body ?? '' };
        comments.push(comment);
        send(res, 201, asGitHub(comment));
      }
      return;
    }
    send(res, 404, { message: 'Not Found' });
  });
}

/** GitLab's REST API v4, as under `CI_API_V4_URL`. */
export function fakeGitLab(): Promise<FakeCodeHost> {
  return start((req, url, host, res, newId) => {
    if (req.headers['private-token'] !== 'gl-test-token') {
      send(res, 401, { message: '401 Unauthorized' });
      return;
    }
    const path = url.pathname;
    const json = () => JSON.parse(req.body || '{}') as { body?: string };
    const asNote = (c: FakeComment) => ({ id: c.id, body: c.body, system: false });
    const asGitLabIssue = (i: FakeIssue) => ({
      iid: i.number,
      title: i.title,
      description: i.body,
      state: i.state === 'open' ? 'opened' : 'closed',
      labels: i.labels,
      web_url: `https://gitlab.test/issues/${i.number}`,
    });
    let m = /^\/api\/v4\/projects\/[^/]+\/merge_requests\/(\d+)\/notes$/.exec(path);
    // (issues first: see below)
    if (m !== null) {
      const comments = thread(host, `mr:${m[1]}`);
      if (req.method === 'GET') {
        const { items, headers } = page(comments, url, host.url);
        send(res, 200, items.map(asNote), headers);
      } else {
        const comment = { id: newId(), body: json().body ?? '' };
        comments.push(comment);
        send(res, 201, asNote(comment));
      }
      return;
    }
    m = /^\/api\/v4\/projects\/[^/]+\/merge_requests\/\d+\/notes\/(\d+)$/.exec(path);
    if (m !== null && req.method === 'PUT') {
      const comment = findComment(host, Number(m[1]));
      if (comment === undefined) return send(res, 404, { message: '404 Not found' });
      comment.body = json().body ?? '';
      send(res, 200, asNote(comment));
      return;
    }
    m = /^\/api\/v4\/projects\/[^/]+\/repository\/commits\/([0-9a-f]+)\/merge_requests$/.exec(path);
    if (m !== null) {
      const pulls = host.commitPulls.get(m[1] ?? '') ?? [];
      send(
        res,
        200,
        pulls.map((p) => ({ iid: p.number, state: p.merged ? 'merged' : 'opened' })),
      );
      return;
    }
    m = /^\/api\/v4\/projects\/[^/]+\/repository\/commits\/([0-9a-f]+)\/discussions$/.exec(path);
    if (m !== null) {
      const comments = thread(host, `commit:${m[1]}`);
      if (req.method === 'GET') {
        const discussions = comments.map((c) => ({ id: c.discussion, notes: [asNote(c)] }));
        const { items, headers } = page(discussions, url, host.url);
        send(res, 200, items, headers);
      } else {
        const comment = { id: newId(), body: json().body ?? '', discussion: `d${newId()}` };
        comments.push(comment);
        send(res, 201, { id: comment.discussion, notes: [asNote(comment)] });
      }
      return;
    }
    m =
      /^\/api\/v4\/projects\/[^/]+\/repository\/commits\/[0-9a-f]+\/discussions\/([^/]+)\/notes\/(\d+)$/.exec(
        path,
      );
    if (m !== null && req.method === 'PUT') {
      const comment = findComment(host, Number(m[2]));
      if (comment === undefined || comment.discussion !== m[1])
        return send(res, 404, { message: '404 Not found' });
      comment.body = json().body ?? '';
      send(res, 200, asNote(comment));
      return;
    }
    if (/^\/api\/v4\/projects\/[^/]+\/issues$/.test(path)) {
      if (req.method === 'GET') {
        const label = url.searchParams.get('labels');
        const state = url.searchParams.get('state');
        const found = host.issues.filter(
          (i) =>
            (state === null || (state === 'opened' ? i.state === 'open' : i.state === 'closed')) &&
            (label === null || i.labels.includes(label)),
        );
        const { items, headers } = page(found, url, host.url);
        send(res, 200, items.map(asGitLabIssue), headers);
      } else {
        const input = JSON.parse(req.body) as { title: string; description?: string; labels?: string };
        const issue: FakeIssue = {
          number: host.issues.length + 1,
          title: input.title,
          body: input.description ?? '',
          labels: input.labels === undefined ? [] : input.labels.split(','),
          state: 'open',
        };
        host.issues.push(issue);
        send(res, 201, asGitLabIssue(issue));
      }
      return;
    }
    m = /^\/api\/v4\/projects\/[^/]+\/issues\/(\d+)$/.exec(path);
    if (m !== null && req.method === 'PUT') {
      const issue = host.issues.find((i) => i.number === Number(m?.[1]));
      if (issue === undefined) return send(res, 404, { message: '404 Not found' });
      const input = JSON.parse(req.body) as { description?: string; state_event?: 'close' | 'reopen' };
      if (input.description !== undefined) issue.body = input.description;
      if (input.state_event === 'close') issue.state = 'closed';
      send(res, 200, asGitLabIssue(issue));
      return;
    }
    send(res, 404, { message: '404 Not found' });
  });
}
