import type { Client } from '@monitor/api';
import type { Live } from '@monitor/engine';

/**
 * The live account read once for every project of a workspace run that only reads (`diff --all`,
 * `pull --all`): forty projects in one account read the same resources forty times otherwise (a
 * no-change diff of 40 projects of 250 constructs read 15,000 resources 40 times: 5.6× the diff of
 * one project of all 10,000, and 867 MB). A run that writes (deploy, destroy) reads its own: the
 * projects before it change the account.
 */
let sharing = false;
const reads = new Map<string, Promise<Live>>();

/** Share the reads of the account from now until `stopSharingLiveReads`. */
export function shareLiveReads(): void {
  sharing = true;
}

export function stopSharingLiveReads(): void {
  sharing = false;
  reads.clear();
}

/**
 * The account's resources as the first project of the run that asked read them, when reads are
 * shared; undefined (read your own) otherwise. A shared read that fails (the client of the project
 * that made it was closed early) is read again with `client`.
 */
export function sharedLiveRead(
  key: { service: string; accountId: string },
  client: Client,
): Promise<Live> | undefined {
  if (!sharing) return undefined;
  const id = `${key.service}\0${key.accountId}`;
  const known = reads.get(id);
  if (known !== undefined) return known.catch(() => readWith(client));
  const read = readWith(client);
  reads.set(id, read);
  read.catch(() => reads.delete(id));
  return read;
}

async function readWith(client: Client): Promise<Live> {
  const { readLive } = await import('@monitor/engine');
  return readLive(client);
}
