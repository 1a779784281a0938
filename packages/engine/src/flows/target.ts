import type { Client } from '@monitor/api';
import type { ByPhysicalId } from '../identity.js';
import { readLive } from '../live/read-live.js';
import type { LoadedProject } from '../load/load.js';
import type { Live } from '../plan/types.js';
import type { StateBackend } from '../state/backend.js';
import type { OtherProjects } from '../state/other-projects.js';
import type { State } from '../state/state.js';
import { WrongServiceError } from './errors.js';

/** What a flow works on: a loaded project, an account's client and its state backend. */
export interface Target {
  project: LoadedProject;
  client: Client;
  accountId: string;
  /**
   * Which service the account is on (`serviceIdentity`): state written against one server is never
   * used against another, whose resources have the same ids. @default not checked
   */
  service?: string | undefined;
  backend: StateBackend;
  /** The key of the hashes of sensitive values in state (`MONITOR_STATE_SECRET`); never stored. */
  secretKey?: string | undefined;
  /**
   * The other projects' states in this account (the shared state database, or the workspace's
   * files): what `X.fromProject` resolves against, and what keeps referenced resources from being
   * deleted. @default none: every reference to another project is unresolved
   */
  otherProjects?: OtherProjects | undefined;
}

/** What a plan is made of besides the code: state, the live account, and what other projects own. */
export interface AccountSnapshot {
  state: State;
  live: Live;
  /** Resources other projects own (→ the project), when the state backend is shared. */
  otherOwners: ByPhysicalId<string> | undefined;
  /** API calls the read made. */
  requests: number;
}

/** The embedded emulator of `--local`: one service wherever its port is. */
export const LOCAL_SERVICE = 'local';

/**
 * What names a service in state: its base URL, without a trailing slash, the host lower-cased (or
 * `local` for the embedded emulator, which listens on a new port every run).
 */
export function serviceIdentity(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The state, when it belongs to `service` (or records none yet, or owns nothing that a stranger's
 * ids could be mistaken for); else a `WrongServiceError`: the ids in it are another server's.
 */
export function checkService(state: State, service: string | undefined, location: string): State {
  if (service === undefined || state.service === undefined || state.service === service) return state;
  if (Object.keys(state.resources).length === 0 && state.pendingCreates.length === 0) return state;
  throw new WrongServiceError(
    `the state in ${location} was written against ${state.service}, not ${service}: its ids name resources of that service`,
    `point MONITOR_BASE_URL at ${state.service === LOCAL_SERVICE ? 'the service the state belongs to (it is the embedded emulator’s: use --local)' : state.service}; if that same service moved to ${service}, record the move with monitor state rebind`,
  );
}

/**
 * Read state, the live account and the other projects' ownership, all at once. Needs no project:
 * `diff` can be handed it started while the construct files still load.
 */
export async function readAccount({
  client,
  backend,
  service,
  live: read,
}: Pick<Target, 'client' | 'backend' | 'service'> & {
  /** The account as another project of this run read it (a workspace's diff): read once, for all. */
  live?: Promise<Live> | undefined;
}): Promise<AccountSnapshot> {
  const before = client.requestCount;
  const [state, live, otherOwners] = await Promise.all([
    backend.read().then((s) => checkService(s, service, backend.location)),
    read ?? readLive(client),
    backend.owners?.(),
  ]);
  return { state, live, otherOwners, requests: client.requestCount - before };
}
