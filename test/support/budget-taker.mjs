// A run drawing on an account's shared budget as a deploy would, as fast as the budget lets it: it
// takes up to `batch` tokens at a time, waits as told, until it has `want` of them (or, with
// `hold`, takes once and then waits to be killed). Each grant is one JSON line on stdout:
// {"at": ms when the take returned, "granted": n, "otherRuns": n}; "done" when it has them all.
//   node budget-taker.mjs '{"store":"file","dir":…,"accountId":…,"limit":{…},"want":40,"batch":10}'
//   node budget-taker.mjs '{"store":"postgres","url":…,…}'
import { setTimeout as sleep } from 'node:timers/promises';
import { FileAccountBudget, PostgresAccountBudget } from '@monitor/engine/budget';

const options = JSON.parse(process.argv[2]);
const where = {
  service: options.service ?? 'http://127.0.0.1:1',
  accountId: options.accountId,
  limit: options.limit,
};
const budget =
  options.store === 'postgres'
    ? new PostgresAccountBudget({ url: options.url, ...where })
    : new FileAccountBudget({ dir: options.dir, ...where });

let have = 0;
while (have < options.want) {
  const grant = await budget.take(Math.min(options.batch, options.want - have));
  have += grant.granted;
  if (grant.granted > 0) {
    process.stdout.write(
      `${JSON.stringify({ at: Date.now(), granted: grant.granted, otherRuns: grant.otherRuns })}\n`,
    );
  }
  if (options.hold) {
    process.stdout.write('holding\n');
    await sleep(3_600_000);
  }
  if (grant.granted === 0) await sleep(Math.max(5, grant.retryInMs));
}
process.stdout.write('done\n');
await budget.close();
