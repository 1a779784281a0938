import { ContractError } from './errors.js';

/** One page of a list, whichever pagination style the endpoint uses. */
export interface Page<T> {
  items: T[];
  /** Page-based lists: every match, from `Content-Range`, when the server sent it. */
  total?: number | undefined;
  /** Cursor-based lists: the cursor of the next page; null on the last page. */
  nextId?: string | null | undefined;
}

/** Parse `Content-Range: START-END/TOTAL` or `*\/TOTAL`. */
export function parseContentRange(header: string | undefined): {
  start?: number;
  end?: number;
  total?: number;
} {
  if (header === undefined) return {};
  const m = /(?:(\d+)-(\d+)|\*)\/(\d+|\*)/.exec(header);
  if (m === null) return {};
  const out: { start?: number; end?: number; total?: number } = {};
  if (m[1] !== undefined && m[2] !== undefined) {
    out.start = Number(m[1]);
    out.end = Number(m[2]);
  }
  if (m[3] !== undefined && m[3] !== '*') out.total = Number(m[3]);
  return out;
}

/**
 * Iterate page-based lists: stop on a short page, an empty page, or once `total` items were seen.
 * Pages are numbered from 1 (page n holds items (n - 1) * limit onwards); `firstPage` may start
 * later. Once a page has told the total (`Content-Range`), the pages it says are left are asked
 * for up to `concurrency` at a time, and yielded in order: a list of 50 pages costs 50 round trips
 * one after another otherwise. A page asked for ahead of a stop (the list shrank, a page before it
 * failed, the caller stopped reading) still goes out and is counted, but is not waited for, and
 * its failure is not reported.
 */
export async function* iteratePages<T>(
  fetchPage: (page: number, limit: number) => Promise<Page<T>>,
  limit = 100,
  firstPage = 1,
  concurrency = 1,
): AsyncGenerator<Page<T>> {
  const asked = new Map<number, Promise<Page<T>>>();
  const ask = (page: number) => {
    const answer = fetchPage(page, limit);
    // Handled here so that a page never waited for does not fail the process; awaiting it below
    // still throws its error.
    answer.catch(() => undefined);
    asked.set(page, answer);
  };
  let seen = 0;
  // The last page by the latest total; undefined until a page has told it.
  let lastPage: number | undefined;
  for (let page = firstPage; ; page++) {
    const ahead = lastPage === undefined ? page : Math.max(page, Math.min(lastPage, page + concurrency - 1));
    for (let p = page; p <= ahead; p++) if (!asked.has(p)) ask(p);
    const result = await (asked.get(page) as Promise<Page<T>>);
    asked.delete(page);
    yield result;
    seen += result.items.length;
    if (result.items.length < limit) return;
    if (result.total !== undefined) {
      if (seen >= result.total) return;
      lastPage = Math.ceil(result.total / limit);
    }
  }
}

/**
 * Iterate cursor-based lists: follow `nextId` until it is null. A cursor the service already gave
 * would read the same pages forever: a `ContractError` instead.
 */
export async function* iterateCursor<T>(
  fetchPage: (nextId: string | undefined, limit: number) => Promise<Page<T>>,
  limit = 100,
  what = 'a list',
): AsyncGenerator<Page<T>> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const result = await fetchPage(cursor, limit);
    yield result;
    if (result.nextId === null || result.nextId === undefined || result.items.length === 0) return;
    if (seen.has(result.nextId)) {
      throw new ContractError(
        `${what} returned the cursor ${JSON.stringify(result.nextId)} a second time after ${seen.size + 1} pages: following it would never end`,
        { hint: 'the service paginates in a loop; report it to the service, with the cursor' },
      );
    }
    seen.add(result.nextId);
    cursor = result.nextId;
  }
}

/** Flatten an iterator of pages into one of items. */
export async function* itemsOf<T>(pages: AsyncIterable<Page<T>>): AsyncGenerator<T> {
  for await (const page of pages) yield* page.items;
}

/** Collect every item of an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
