import { describe, expect, it } from 'vitest';
import { iteratePages, type Page } from './pagination.js';

/**
 * A list of the numbers 0 to `total` - 1 served in pages whose answers the test gives, in any
 * order; `totalAfter` changes the list's length as a page is answered (items made or deleted).
 */
function pagedList(total: number, options: { totalAfter?: (page: number) => number } = {}) {
  const pages: number[] = [];
  const pending = new Map<number, { answer: () => void; fail: (e: Error) => void }>();
  const fetchPage = (page: number, limit: number) =>
    new Promise<Page<number>>((resolve, reject) => {
      pages.push(page);
      const answer = () => {
        const now = options.totalAfter?.(page) ?? total;
        const start = (page - 1) * limit;
        const count = Math.max(0, Math.min(limit, now - start));
        resolve({ items: Array.from({ length: count }, (_, i) => start + i), total: now });
      };
      pending.set(page, { answer, fail: reject });
    });
  const asked = (page: number) => {
    const request = pending.get(page);
    if (request === undefined) throw new Error(`page ${page} was not asked for (asked: ${pages.join(', ')})`);
    return request;
  };
  return {
    asked: pages,
    fetchPage,
    answer: (page: number) => asked(page).answer(),
    fail: (page: number, error: Error) => asked(page).fail(error),
  };
}

/** Let the generator run until it waits for a page. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('iteratePages with pages in flight', () => {
  it('asks for the pages the first one tells of, a few at a time, and yields them in order', async () => {
    const list = pagedList(450);
    const pages = iteratePages(list.fetchPage, 100, 1, 3);
    const seen: number[][] = [];
    const reading = (async () => {
      for await (const page of pages) seen.push(page.items);
    })();
    await settle();
    expect(list.asked).toEqual([1]);
    list.answer(1);
    await settle();
    expect(list.asked).toEqual([1, 2, 3, 4]);
    // Later pages answer first: nothing is yielded out of order.
    list.answer(4);
    list.answer(3);
    await settle();
    expect(seen).toHaveLength(1);
    list.answer(2);
    await settle();
    expect(list.asked).toEqual([1, 2, 3, 4, 5]);
    list.answer(5);
    await reading;
    expect(seen.flat()).toEqual(Array.from({ length: 450 }, (_, i) => i));
    expect(list.asked).toEqual([1, 2, 3, 4, 5]);
  });

  it('one page at a time by default', async () => {
    const list = pagedList(250);
    const reading = (async () => {
      const out: number[] = [];
      for await (const page of iteratePages(list.fetchPage, 100)) out.push(...page.items);
      return out;
    })();
    for (const page of [1, 2, 3]) {
      await settle();
      expect(list.asked).toEqual([1, 2, 3].slice(0, page));
      list.answer(page);
    }
    expect(await reading).toHaveLength(250);
  });

  it('stops at a short page of a list that shrank, and a page asked for beyond it fails nothing', async () => {
    // 500 items when page 1 is read; 150 by the time the others are.
    const list = pagedList(500, { totalAfter: (page) => (page === 1 ? 500 : 150) });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const reading = (async () => {
        const out: number[] = [];
        for await (const page of iteratePages(list.fetchPage, 100, 1, 4)) out.push(...page.items);
        return out;
      })();
      await settle();
      list.answer(1);
      await settle();
      expect(list.asked).toEqual([1, 2, 3, 4, 5]);
      list.answer(2);
      list.fail(3, new Error('page 3 broke'));
      list.answer(4);
      await settle();
      // Page 2 (items 100 to 149) is short: the read ends there, page 3's failure is not its.
      expect(await reading).toEqual(Array.from({ length: 150 }, (_, i) => i));
      list.fail(5, new Error('page 5 broke'));
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('fails at a page that fails, after the pages before it, as a read of one page at a time would', async () => {
    const list = pagedList(400);
    const out: number[] = [];
    const reading = (async () => {
      for await (const page of iteratePages(list.fetchPage, 100, 1, 4)) out.push(...page.items);
    })();
    await settle();
    list.answer(1);
    await settle();
    list.fail(3, new Error('page 3 broke'));
    list.answer(2);
    list.answer(4);
    await expect(reading).rejects.toThrow('page 3 broke');
    expect(out).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('goes on past the first total when the list grew while it was read', async () => {
    const list = pagedList(200, { totalAfter: (page) => (page === 1 ? 200 : 320) });
    const reading = (async () => {
      const out: number[] = [];
      for await (const page of iteratePages(list.fetchPage, 100, 1, 4)) out.push(...page.items);
      return out;
    })();
    for (const page of [1, 2, 3, 4]) {
      await settle();
      list.answer(page);
    }
    expect(await reading).toEqual(Array.from({ length: 320 }, (_, i) => i));
    expect(list.asked).toEqual([1, 2, 3, 4]);
  });
});
