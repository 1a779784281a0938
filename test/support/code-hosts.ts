import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fakes of the GitHub and GitLab REST endpoints that `--comment`, `--issue` and `pull --pr` use:
 * test doubles of SaaS we cannot run, on loopback port 0. They behave as the real APIs do where monitor can
 * tell: authorship (`user.login`/`user.type`, GitLab's `author.id`), who may edit what, pagination
 * (GitHub's `Link` header; GitLab's `X-Next-Page` and `page` parameters), and faults: a 5xx after
 * a stored write, rate limits with their headers, a connection that never answers. Each keeps its
 * comments in memory and records every request, body included.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A user or bot as both hosts know it. */
export interface FakeUser {
  id: number;
  login: string;
  bot: boolean;
}

/** The workflow's GITHUB_TOKEN: an installation token of the GitHub Actions app. */
export const GITHUB_ACTIONS_TOKEN = 'ghs_fakeActionsInstallationToken0001';
export const GITHUB_ACTIONS_BOT: FakeUser = { id: 41898282, login: 'github-actions[bot]', bot: true };
/** A personal access token, and its user. */
export const GITHUB_PERSONAL_TOKEN = 'ghp_fakePersonalAccessToken000000001';
export const GITHUB_TOKEN_USER: FakeUser = { id: 5001, login: 'deploy-user', bot: false };
/** A GitLab project access token, and its bot user. */
export const GITLAB_TOKEN = 'glpat-fakeProjectAccessToken0001';
export const GITLAB_TOKEN_BOT: FakeUser = { id: 7001, login: 'project_42_bot_1', bot: true };
/** Anyone else who can comment: the author of seeded comments and issues unless they say. */
export const SOMEONE: FakeUser = { id: 666, login: 'someone', bot: false };

export interface FakeComment {
  id: number;
  body: string;
  /** @default SOMEONE */
  author?: FakeUser;
  /** For GitLab commit notes: the discussion holding it. */
  discussion?: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: 'open' | 'closed';
  /** @default SOMEONE */
  author?: FakeUser;
  stateReason?: string;
}

/** A pull request (GitHub) or merge request (GitLab), as the fakes keep it. */
export interface FakePull {
  /** GitHub's number (shared with issues), GitLab's iid. */
  number: number;
  title: string;
  body: string;
  /** The branch it merges from. */
  head: string;
  /** Where that branch is: GitHub's `owner/repo`, GitLab's source project id. @default this repository */
  headRepo?: string;
  /** The branch it merges into. */
  base: string;
  state: 'open' | 'closed' | 'merged';
  /** @default SOMEONE */
  author?: FakeUser;
}

/** A canned answer for the next request that matches; the fake's own behaviour otherwise. */
export interface InjectedFailure {
  method?: string;
  /** Only for requests whose path contains this. */
  path?: string;
  /** @default 500 */
  status?: number;
  /** JSON, or a string sent as text/plain. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Do the request's work first (a write is stored), then answer with this: a 5xx after a stored write. */
  afterWork?: boolean;
  /** Never answer (after the work, with `afterWork`): the client's own timeout has to end the request. */
  hang?: boolean;
}

export interface FakeCodeHost {
  url: string;
  /** The repository's issues (GitHub) or the project's (GitLab). */
  issues: FakeIssue[];
  /** Pull requests (GitHub) or merge requests (GitLab). */
  pulls: FakePull[];
  /** GitHub's setting "Allow GitHub Actions to create and approve pull requests". @default true */
  actionsMayOpenPulls: boolean;
  requests: RecordedRequest[];
  /** Comments per thread: `pr:12`, `commit:<sha>` (GitHub), `mr:3`, `commit:<sha>` (GitLab). */
  threads: Map<string, FakeComment[]>;
  /** Pull or merge requests that a commit belongs to. */
  commitPulls: Map<string, { number: number; merged: boolean }[]>;
  failures: InjectedFailure[];
  /** Requests that change something (GraphQL queries and GETs do not). */
  writes(): RecordedRequest[];
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (req: RecordedRequest, url: URL, host: FakeCodeHost, newId: () => number) => Reply;

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

async function start(
  handle: Handler,
  baseHeaders: () => Record<string, string> = () => ({}),
): Promise<FakeCodeHost> {
  let nextId = 1000;
  const host: FakeCodeHost = {
    url: '',
    issues: [],
    pulls: [],
    actionsMayOpenPulls: true,
    requests: [],
    threads: new Map(),
    commitPulls: new Map(),
    failures: [],
    writes: () => host.requests.filter((r) => r.method !== 'GET' && !r.path.endsWith('/graphql')),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const recorded = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
    host.requests.push(recorded);
    const url = new URL(recorded.path, host.url);
    const at = host.failures.findIndex(
      (f) =>
        (f.method === undefined || f.method === recorded.method) &&
        (f.path === undefined || url.pathname.includes(f.path)),
    );
    const failure = at < 0 ? undefined : host.failures.splice(at, 1)[0];
    if (failure?.hang === true) {
      if (failure.afterWork === true) handle(recorded, url, host, () => nextId++);
      return;
    }
    const done =
      failure === undefined || failure.afterWork === true
        ? handle(recorded, url, host, () => nextId++)
        : undefined;
    const r: Reply =
      failure === undefined
        ? (done as Reply)
        : {
            status: failure.status ?? 500,
            body: failure.body ?? { message: `injected ${failure.status ?? 500}` },
            ...(failure.headers === undefined ? {} : { headers: failure.headers }),
          };
    const text = r.body === undefined ? '' : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
    res.writeHead(r.status, {
      'content-type': typeof r.body === 'string' ? 'text/plain' : 'application/json; charset=utf-8',
      ...baseHeaders(),
      ...r.headers,
    });
    res.end(text);
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

function removeComment(host: FakeCodeHost, id: number): void {
  for (const comments of host.threads.values()) {
    const at = comments.findIndex((c) => c.id === id);
    if (at >= 0) comments.splice(at, 1);
  }
}

const json = <T>(req: RecordedRequest) => JSON.parse(req.body || '{}') as T;
const created = (id: number) => new Date(Date.UTC(2026, 10, 23) + id * 1000).toISOString();

/** The page `url` asks for: `page`, and `per_page` up to 100 (default 30 on GitHub, 20 on GitLab). */
function slice<T>(items: T[], url: URL, defaultPerPage: number) {
  const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? defaultPerPage));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const at = (n: number) => {
    const u = new URL(url);
    u.searchParams.set('page', String(n));
    return u.href;
  };
  return { items: items.slice((page - 1) * perPage, page * perPage), page, pages, perPage, at };
}

/** GitHub's pages: a `Link` header with next, last, first and prev, as GitHub sends it. */
function gitHubPage<T>(items: T[], url: URL): Reply {
  const s = slice(items, url, 30);
  const links: string[] = [];
  if (s.page < s.pages) links.push(`<${s.at(s.page + 1)}>; rel="next"`, `<${s.at(s.pages)}>; rel="last"`);
  if (s.page > 1) links.push(`<${s.at(1)}>; rel="first"`, `<${s.at(s.page - 1)}>; rel="prev"`);
  return { status: 200, body: s.items, headers: links.length === 0 ? {} : { link: links.join(', ') } };
}

/** GitLab's pages: `X-Page`, `X-Next-Page` (empty on the last), `X-Total`…, and a `Link` header. */
function gitLabPage<T>(items: T[], url: URL): Reply {
  const s = slice(items, url, 20);
  const next = s.page < s.pages ? String(s.page + 1) : '';
  return {
    status: 200,
    body: s.items,
    headers: {
      'x-page': String(s.page),
      'x-per-page': String(s.perPage),
      'x-next-page': next,
      'x-prev-page': s.page > 1 ? String(s.page - 1) : '',
      'x-total': String(items.length),
      'x-total-pages': String(s.pages),
      link: [
        ...(next === '' ? [] : [`<${s.at(s.page + 1)}>; rel="next"`]),
        `<${s.at(1)}>; rel="first"`,
        `<${s.at(s.pages)}>; rel="last"`,
      ].join(', '),
    },
  };
}

/** Faults as GitHub answers them. */
export const gitHubFaults = {
  /** A secondary rate limit: 403 with `retry-after` (the hourly quota is not what ran out). */
  secondaryRateLimit: (retryAfterS: number, where: Partial<InjectedFailure> = {}): InjectedFailure => ({
    ...where,
    status: 403,
    headers: { 'retry-after': String(retryAfterS), 'x-ratelimit-remaining': '812' },
    body: {
      message:
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:1111:2222:3333:4444.',
      documentation_url:
        'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
    },
  }),
  /** The hourly quota used up: 403 with `x-ratelimit-remaining: 0` until `resetEpochS`. */
  rateLimitExhausted: (resetEpochS: number, where: Partial<InjectedFailure> = {}): InjectedFailure => ({
    ...where,
    status: 403,
    headers: {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': String(resetEpochS),
      'x-ratelimit-resource': 'core',
    },
    body: {
      message: 'API rate limit exceeded for installation ID 1234567.',
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
    },
  }),
  /** 429 with `retry-after`. */
  tooManyRequests: (retryAfterS: number, where: Partial<InjectedFailure> = {}): InjectedFailure => ({
    ...where,
    status: 429,
    headers: { 'retry-after': String(retryAfterS) },
    body: { message: 'Too Many Requests' },
  }),
};

/** Faults as GitLab answers them. */
export const gitLabFaults = {
  /** 429 from GitLab's rack-attack throttle: `Retry-After` and the `RateLimit-*` headers, a text body. */
  rateLimited: (retryAfterS: number, where: Partial<InjectedFailure> = {}): InjectedFailure => ({
    ...where,
    status: 429,
    headers: {
      'retry-after': String(retryAfterS),
      'ratelimit-name': 'throttle_authenticated_api',
      'ratelimit-limit': '60',
      'ratelimit-observed': '61',
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(Math.floor(Date.now() / 1000) + retryAfterS),
    },
    body: 'Retry later\n',
  }),
  /** Workhorse's answer when Puma is down: 502 with a text body. */
  badGateway: (where: Partial<InjectedFailure> = {}): InjectedFailure => ({
    ...where,
    status: 502,
    body: 'GitLab is not responding\n',
  }),
};

/** GitHub numbers issues and pull requests in one sequence. */
function nextGitHubNumber(host: FakeCodeHost): number {
  return Math.max(0, ...host.issues.map((i) => i.number), ...host.pulls.map((p) => p.number)) + 1;
}

/**
 * GitHub's pull requests of `repository` (`owner/repo`): listed with the `state`, `head`
 * (`owner:branch`) and `base` filters, opened (one open pull request per head and base, as GitHub
 * allows; an installation token only when the repository lets Actions open them), edited and closed.
 */
function gitHubPulls(
  req: RecordedRequest,
  url: URL,
  path: string,
  host: FakeCodeHost,
  me: { user: FakeUser; installation: boolean },
  newNumber: () => number,
): Reply | undefined {
  const m = /^\/repos\/([^/]+)\/([^/]+)\/pulls(?:\/(\d+))?$/.exec(path);
  if (m === null) return undefined;
  const repository = `${m[1]}/${m[2]}`;
  const user = (u: FakeUser) => ({ login: u.login, id: u.id, type: u.bot ? 'Bot' : 'User' });
  const asPull = (p: FakePull) => {
    const headRepo = p.headRepo ?? repository;
    return {
      number: p.number,
      html_url: `https://github.test/pull/${p.number}`,
      title: p.title,
      body: p.body,
      state: p.state === 'open' ? 'open' : 'closed',
      merged_at: p.state === 'merged' ? '2026-11-23T00:00:00Z' : null,
      user: user(p.author ?? SOMEONE),
      head: { ref: p.head, label: `${headRepo.split('/')[0]}:${p.head}`, repo: { full_name: headRepo } },
      base: { ref: p.base, repo: { full_name: repository } },
    };
  };
  const invalid = (message: string): Reply => ({
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ resource: 'PullRequest', code: 'custom', message }],
      documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
    },
  });
  if (m[3] === undefined && req.method === 'GET') {
    const state = url.searchParams.get('state') ?? 'open';
    const head = url.searchParams.get('head');
    const base = url.searchParams.get('base');
    const found = host.pulls.filter(
      (p) =>
        (state === 'all' || (state === 'open') === (p.state === 'open')) &&
        (head === null || head === `${(p.headRepo ?? repository).split('/')[0]}:${p.head}`) &&
        (base === null || base === p.base),
    );
    if (url.searchParams.get('direction') !== 'asc') found.reverse();
    return gitHubPage(found.map(asPull), url);
  }
  if (m[3] === undefined && req.method === 'POST') {
    if (me.installation && !host.actionsMayOpenPulls) {
      return {
        status: 403,
        body: { message: 'GitHub Actions is not permitted to create or approve pull requests.' },
      };
    }
    const input = json<{ title?: string; head?: string; base?: string; body?: string }>(req);
    if (!input.title || !input.head || !input.base) return invalid('title, head and base are required');
    const [owner, branch] = input.head.includes(':') ? input.head.split(':', 2) : [m[1], input.head];
    const headRepo = owner === m[1] ? repository : `${owner}/${m[2]}`;
    const taken = host.pulls.find(
      (p) =>
        p.state === 'open' &&
        (p.headRepo ?? repository) === headRepo &&
        p.head === branch &&
        p.base === input.base,
    );
    if (taken !== undefined) return invalid(`A pull request already exists for ${owner}:${branch}.`);
    const pull: FakePull = {
      number: newNumber(),
      title: input.title,
      body: input.body ?? '',
      head: branch ?? '',
      ...(headRepo === repository ? {} : { headRepo }),
      base: input.base,
      state: 'open',
      author: me.user,
    };
    host.pulls.push(pull);
    return { status: 201, body: asPull(pull) };
  }
  const pull = host.pulls.find((p) => p.number === Number(m[3]));
  if (pull === undefined) return { status: 404, body: { message: 'Not Found' } };
  if (req.method === 'GET') return { status: 200, body: asPull(pull) };
  if (req.method !== 'PATCH') return undefined;
  const input = json<{ title?: string; body?: string; state?: 'open' | 'closed' }>(req);
  if (input.title !== undefined) pull.title = input.title;
  if (input.body !== undefined) pull.body = input.body;
  if (input.state !== undefined && pull.state !== 'merged') pull.state = input.state;
  return { status: 200, body: asPull(pull) };
}

/**
 * GitLab's merge requests of project 42: listed with the `state`, `source_branch`,
 * `target_branch` and `author_id` filters, opened (one open merge request per source and target
 * branch, as GitLab allows), edited and closed.
 */
function gitLabMergeRequests(
  req: RecordedRequest,
  url: URL,
  path: string,
  host: FakeCodeHost,
  me: FakeUser,
): Reply | undefined {
  const m = /^\/api\/v4\/projects\/([^/]+)\/merge_requests(?:\/(\d+))?$/.exec(path);
  if (m === null) return undefined;
  const project = decodeURIComponent(m[1] ?? '');
  const author = (u: FakeUser) => ({ id: u.id, username: u.login, name: u.login, bot: u.bot });
  const states = { open: 'opened', closed: 'closed', merged: 'merged' } as const;
  const asRequest = (p: FakePull) => ({
    id: 90_000 + p.number,
    iid: p.number,
    project_id: Number(project),
    web_url: `https://gitlab.test/merge_requests/${p.number}`,
    title: p.title,
    description: p.body,
    state: states[p.state],
    author: author(p.author ?? SOMEONE),
    source_branch: p.head,
    target_branch: p.base,
    source_project_id: Number(p.headRepo ?? project),
    target_project_id: Number(project),
  });
  const input = () => json<Record<string, string | boolean | undefined>>(req);
  if (m[2] === undefined && req.method === 'GET') {
    const q = (name: string) => url.searchParams.get(name);
    const found = host.pulls.filter(
      (p) =>
        (q('state') === null || q('state') === 'all' || q('state') === states[p.state]) &&
        (q('source_branch') === null || q('source_branch') === p.head) &&
        (q('target_branch') === null || q('target_branch') === p.base) &&
        (q('author_id') === null || String((p.author ?? SOMEONE).id) === q('author_id')),
    );
    if (q('sort') !== 'asc') found.reverse();
    return gitLabPage(found.map(asRequest), url);
  }
  if (m[2] === undefined && req.method === 'POST') {
    const { source_branch, target_branch, title, description } = input();
    if (typeof source_branch !== 'string' || typeof target_branch !== 'string' || typeof title !== 'string')
      return { status: 400, body: { error: 'source_branch, target_branch, title are missing' } };
    const taken = host.pulls.find(
      (p) =>
        p.state === 'open' &&
        (p.headRepo ?? project) === project &&
        p.head === source_branch &&
        p.base === target_branch,
    );
    if (taken !== undefined) {
      return {
        status: 409,
        body: {
          message: [`Another open merge request already exists for this source branch: !${taken.number}`],
        },
      };
    }
    const pull: FakePull = {
      number: Math.max(0, ...host.pulls.map((p) => p.number)) + 1,
      title,
      body: typeof description === 'string' ? description : '',
      head: source_branch,
      base: target_branch,
      state: 'open',
      author: me,
    };
    host.pulls.push(pull);
    return { status: 201, body: asRequest(pull) };
  }
  const pull = host.pulls.find((p) => p.number === Number(m[2]));
  if (pull === undefined) return { status: 404, body: { message: '404 Not found' } };
  if (req.method === 'GET') return { status: 200, body: asRequest(pull) };
  if (req.method !== 'PUT') return undefined;
  const { title, description, state_event } = input();
  if (typeof title === 'string') pull.title = title;
  if (typeof description === 'string') pull.body = description;
  if (state_event === 'close' && pull.state === 'open') pull.state = 'closed';
  if (state_event === 'reopen' && pull.state === 'closed') pull.state = 'open';
  return { status: 200, body: asRequest(pull) };
}

/** GitHub's REST API under `prefix` (`''` as on api.github.com, `/api/v3` as on GitHub Enterprise). */
export function fakeGitHub(prefix = ''): Promise<FakeCodeHost> {
  const tokens = new Map([
    [GITHUB_ACTIONS_TOKEN, { user: GITHUB_ACTIONS_BOT, installation: true }],
    [GITHUB_PERSONAL_TOKEN, { user: GITHUB_TOKEN_USER, installation: false }],
  ]);
  let remaining = 1000;
  const graphqlPath = prefix === '/api/v3' ? '/api/graphql' : `${prefix}/graphql`;
  const user = (u: FakeUser) => ({ login: u.login, id: u.id, type: u.bot ? 'Bot' : 'User' });
  const asComment = (c: FakeComment) => ({
    id: c.id,
    html_url: `https://github.test/comment/${c.id}`,
    body: c.body,
    user: user(c.author ?? SOMEONE),
    created_at: created(c.id),
    author_association: (c.author ?? SOMEONE).bot ? 'NONE' : 'CONTRIBUTOR',
  });
  const asIssue = (i: FakeIssue) => ({
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.stateReason ?? null,
    labels: i.labels.map((name) => ({ name })),
    user: user(i.author ?? SOMEONE),
    html_url: `https://github.test/issues/${i.number}`,
  });
  const notFound: Reply = { status: 404, body: { message: 'Not Found' } };
  const forbidden: Reply = { status: 403, body: { message: 'Resource not accessible by integration' } };

  return start(
    (req, url, host, newId) => {
      const auth = /^(?:token|Bearer) (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const token = tokens.get(auth);
      if (token === undefined) return { status: 401, body: { message: 'Bad credentials' } };
      if (req.headers['user-agent'] === undefined) {
        return { status: 403, body: { message: 'Request forbidden by administrative rules.' } };
      }
      const version = req.headers['x-github-api-version'];
      if (version !== undefined && version !== '2022-11-28') {
        return { status: 400, body: { message: `API version ${version} is not supported.` } };
      }
      remaining--;
      const me = token.user;
      if (url.pathname === graphqlPath && req.method === 'POST') {
        const { query } = json<{ query?: string }>(req);
        if (!/\bviewer\s*\{/.test(query ?? ''))
          return { status: 200, body: { errors: [{ message: 'not faked' }] } };
        return { status: 200, body: { data: { viewer: { login: me.login, databaseId: me.id } } } };
      }
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : '';
      if (path === '/user' && req.method === 'GET') {
        // An installation token is not a user: GitHub refuses it this endpoint.
        return token.installation ? forbidden : { status: 200, body: user(me) };
      }
      const listOrCreate = (key: string): Reply => {
        const comments = thread(host, key);
        if (req.method === 'GET') return gitHubPage(comments.map(asComment), url);
        const comment = { id: newId(), body: json<{ body?: string }>(req).body ?? '', author: me };
        comments.push(comment);
        return { status: 201, body: asComment(comment) };
      };
      const editOrDelete = (id: number): Reply => {
        const comment = findComment(host, id);
        if (comment === undefined) return notFound;
        if ((comment.author ?? SOMEONE).id !== me.id) return forbidden;
        if (req.method === 'DELETE') {
          removeComment(host, id);
          return { status: 204 };
        }
        comment.body = json<{ body?: string }>(req).body ?? '';
        return { status: 200, body: asComment(comment) };
      };
      const repo = '^/repos/[^/]+/[^/]+';
      let m = new RegExp(`${repo}/issues/(\\d+)/comments$`).exec(path);
      if (m !== null) return listOrCreate(`pr:${m[1]}`);
      m = new RegExp(`${repo}/commits/([0-9a-f]+)/comments$`).exec(path);
      if (m !== null) return listOrCreate(`commit:${m[1]}`);
      m = new RegExp(`${repo}/(?:issues/)?comments/(\\d+)$`).exec(path);
      if (m !== null && (req.method === 'PATCH' || req.method === 'DELETE'))
        return editOrDelete(Number(m[1]));
      const pulls = gitHubPulls(req, url, path, host, token, () => nextGitHubNumber(host));
      if (pulls !== undefined) return pulls;
      m = new RegExp(`${repo}/commits/([0-9a-f]+)/pulls$`).exec(path);
      if (m !== null) {
        const pulls = host.commitPulls.get(m[1] ?? '') ?? [];
        return {
          status: 200,
          body: pulls.map((p) => ({ number: p.number, merged_at: p.merged ? '2026-11-23T00:00:00Z' : null })),
        };
      }
      if (new RegExp(`${repo}/issues$`).test(path)) {
        if (req.method === 'GET') {
          const label = url.searchParams.get('labels');
          const creator = url.searchParams.get('creator');
          const state = url.searchParams.get('state') ?? 'open';
          const found = host.issues.filter(
            (i) =>
              (state === 'all' || i.state === state) &&
              (label === null || i.labels.includes(label)) &&
              (creator === null || (i.author ?? SOMEONE).login === creator),
          );
          if (url.searchParams.get('direction') !== 'asc') found.reverse();
          return gitHubPage(found.map(asIssue), url);
        }
        const input = json<{ title: string; body?: string; labels?: string[] }>(req);
        const issue: FakeIssue = {
          number: nextGitHubNumber(host),
          title: input.title,
          body: input.body ?? '',
          labels: input.labels ?? [],
          state: 'open',
          author: me,
        };
        host.issues.push(issue);
        return { status: 201, body: asIssue(issue) };
      }
      m = new RegExp(`${repo}/issues/(\\d+)(/labels)?$`).exec(path);
      if (m !== null && (req.method === 'PATCH' || req.method === 'POST')) {
        const issue = host.issues.find((i) => i.number === Number(m?.[1]));
        if (issue === undefined) return notFound;
        if (m[2] !== undefined) {
          for (const label of json<{ labels: string[] }>(req).labels) {
            if (!issue.labels.includes(label)) issue.labels.push(label);
          }
          return { status: 200, body: issue.labels.map((name) => ({ name })) };
        }
        const input = json<{ body?: string; state?: 'open' | 'closed'; state_reason?: string }>(req);
        if (input.body !== undefined) issue.body = input.body;
        if (input.state !== undefined) issue.state = input.state;
        if (input.state_reason !== undefined) issue.stateReason = input.state_reason;
        return { status: 200, body: asIssue(issue) };
      }
      return notFound;
    },
    () => ({
      'x-github-api-version-selected': '2022-11-28',
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': String(Math.max(0, remaining)),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
    }),
  );
}

/** GitLab's REST API v4, as under `CI_API_V4_URL`. */
export function fakeGitLab(): Promise<FakeCodeHost> {
  return start((req, url, host, newId) => {
    if (req.headers['private-token'] !== GITLAB_TOKEN)
      return { status: 401, body: { message: '401 Unauthorized' } };
    const me = GITLAB_TOKEN_BOT;
    const path = url.pathname;
    const input = () => json<Record<string, string | undefined>>(req);
    const author = (u: FakeUser) => ({ id: u.id, username: u.login, name: u.login, bot: u.bot });
    const asNote = (c: FakeComment) => ({
      id: c.id,
      body: c.body,
      author: author(c.author ?? SOMEONE),
      created_at: created(c.id),
      system: false,
    });
    const asIssue = (i: FakeIssue) => ({
      iid: i.number,
      title: i.title,
      description: i.body,
      state: i.state === 'open' ? 'opened' : 'closed',
      labels: i.labels,
      author: author(i.author ?? SOMEONE),
      web_url: `https://gitlab.test/issues/${i.number}`,
    });
    const notFound: Reply = { status: 404, body: { message: '404 Not found' } };
    const editOrDelete = (comment: FakeComment | undefined): Reply => {
      if (comment === undefined) return notFound;
      if ((comment.author ?? SOMEONE).id !== me.id)
        return { status: 403, body: { message: '403 Forbidden' } };
      if (req.method === 'DELETE') {
        removeComment(host, comment.id);
        return { status: 204 };
      }
      comment.body = input().body ?? '';
      return { status: 200, body: asNote(comment) };
    };
    if (path === '/api/v4/user' && req.method === 'GET') return { status: 200, body: author(me) };
    const project = '^/api/v4/projects/[^/]+';
    let m = new RegExp(`${project}/merge_requests/(\\d+)/notes$`).exec(path);
    if (m !== null) {
      const comments = thread(host, `mr:${m[1]}`);
      if (req.method === 'GET') return gitLabPage(comments.map(asNote), url);
      const comment = { id: newId(), body: input().body ?? '', author: me };
      comments.push(comment);
      return { status: 201, body: asNote(comment) };
    }
    const merges = gitLabMergeRequests(req, url, path, host, me);
    if (merges !== undefined) return merges;
    m = new RegExp(`${project}/merge_requests/\\d+/notes/(\\d+)$`).exec(path);
    if (m !== null && (req.method === 'PUT' || req.method === 'DELETE')) {
      return editOrDelete(findComment(host, Number(m[1])));
    }
    m = new RegExp(`${project}/repository/commits/([0-9a-f]+)/merge_requests$`).exec(path);
    if (m !== null) {
      const pulls = host.commitPulls.get(m[1] ?? '') ?? [];
      return {
        status: 200,
        body: pulls.map((p) => ({ iid: p.number, state: p.merged ? 'merged' : 'opened' })),
      };
    }
    m = new RegExp(`${project}/repository/commits/([0-9a-f]+)/discussions$`).exec(path);
    if (m !== null) {
      const comments = thread(host, `commit:${m[1]}`);
      if (req.method === 'GET') {
        return gitLabPage(
          comments.map((c) => ({ id: c.discussion, notes: [asNote(c)] })),
          url,
        );
      }
      const comment = { id: newId(), body: input().body ?? '', discussion: `d${newId()}`, author: me };
      comments.push(comment);
      return { status: 201, body: { id: comment.discussion, notes: [asNote(comment)] } };
    }
    m = new RegExp(`${project}/repository/commits/[0-9a-f]+/discussions/([^/]+)/notes/(\\d+)$`).exec(path);
    if (m !== null && (req.method === 'PUT' || req.method === 'DELETE')) {
      const comment = findComment(host, Number(m[2]));
      return editOrDelete(comment?.discussion === m[1] ? comment : undefined);
    }
    if (new RegExp(`${project}/issues$`).test(path)) {
      if (req.method === 'GET') {
        const q = (name: string) => url.searchParams.get(name);
        const found = host.issues.filter(
          (i) =>
            (q('state') === null || (q('state') === 'opened' ? i.state === 'open' : i.state === 'closed')) &&
            (q('labels') === null || i.labels.includes(q('labels') ?? '')) &&
            (q('author_id') === null || String((i.author ?? SOMEONE).id) === q('author_id')),
        );
        if (q('sort') !== 'asc') found.reverse();
        return gitLabPage(found.map(asIssue), url);
      }
      const { title = '', description = '', labels } = input();
      const issue: FakeIssue = {
        number: host.issues.length + 1,
        title,
        body: description,
        labels: labels === undefined ? [] : labels.split(','),
        state: 'open',
        author: me,
      };
      host.issues.push(issue);
      return { status: 201, body: asIssue(issue) };
    }
    m = new RegExp(`${project}/issues/(\\d+)$`).exec(path);
    if (m !== null && req.method === 'PUT') {
      const issue = host.issues.find((i) => i.number === Number(m?.[1]));
      if (issue === undefined) return notFound;
      const { description, state_event, add_labels } = input();
      if (description !== undefined) issue.body = description;
      if (state_event === 'close') issue.state = 'closed';
      for (const label of add_labels?.split(',') ?? []) {
        if (!issue.labels.includes(label)) issue.labels.push(label);
      }
      return { status: 200, body: asIssue(issue) };
    }
    return notFound;
  });
}
