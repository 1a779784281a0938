import type { Row, Table } from './store.js';

/** The ids of each history table, oldest first, so the oldest is found without listing the table. */
const orders = new WeakMap<Table, string[]>();

/**
 * Note that `id` was just added to `t`, and forget the oldest rows beyond `limit`; `forget`
 * cleans up what hangs off each one.
 */
export function keepNewest(t: Table, id: string, limit: number, forget: (row: Row) => void = () => {}): void {
  let order = orders.get(t);
  if (order === undefined) {
    // First use of this table (a new emulator, or data loaded from a file): its rows in order.
    order = Object.keys(t);
    orders.set(t, order);
  } else {
    order.push(id);
  }
  while (order.length > limit) {
    const oldest = order.shift() as string;
    const row = t[oldest];
    if (row === undefined) continue;
    delete t[oldest];
    forget(row);
  }
}
