import type { ReviewHost } from './context.js';

/** The web server of a code host's API: `https://api.github.com` → `https://github.com`. */
function serverOf(host: ReviewHost, env: Record<string, string | undefined>): string | undefined {
  const given = host.host === 'github' ? env.GITHUB_SERVER_URL : env.CI_SERVER_URL;
  if (given !== undefined && given !== '') return given;
  if (host.host === 'gitlab') return host.apiUrl.replace(/\/api\/v4$/, '');
  return host.apiUrl === 'https://api.github.com'
    ? 'https://github.com'
    : host.apiUrl.replace(/\/api\/v3$/, '');
}

/** A server on this machine (a test's fake host): plain HTTP to it never leaves the machine. */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** HTTPS; plain HTTP only to this machine: basic auth over HTTP would send the token in the clear. */
const carriesToken = (url: URL) =>
  url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));

/**
 * The code host's token for git's requests to origin, as actions/checkout hands it to git (basic
 * auth in an `http.<server>/.extraheader`): in git's environment only (`GIT_CONFIG_COUNT`), never
 * in its arguments or in .git/config, and only for an origin over HTTPS (plain HTTP on this
 * machine only) on the host's own server; for any other origin (SSH, plain HTTP, another server)
 * git uses its own credentials. An extra header set before for that server (a checkout's) is
 * reset first: two would be refused.
 */
export function gitAuthEnv(
  origin: string,
  host: ReviewHost,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const server = serverOf(host, env);
  let url: URL;
  let serverUrl: URL;
  try {
    url = new URL(origin);
    serverUrl = new URL(server ?? '');
  } catch {
    return {};
  }
  if (!carriesToken(url) || url.origin !== serverUrl.origin) return {};
  const user = host.host === 'github' ? 'x-access-token' : 'oauth2';
  const basic = Buffer.from(`${user}:${host.token}`).toString('base64');
  const key = `http.${serverUrl.origin}/.extraheader`;
  const count = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
  return {
    GIT_CONFIG_COUNT: String(count + 2),
    [`GIT_CONFIG_KEY_${count}`]: key,
    [`GIT_CONFIG_VALUE_${count}`]: '',
    [`GIT_CONFIG_KEY_${count + 1}`]: key,
    [`GIT_CONFIG_VALUE_${count + 1}`]: `AUTHORIZATION: basic ${basic}`,
  };
}
