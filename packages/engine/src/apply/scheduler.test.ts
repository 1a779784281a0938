import { describe, expect, it } from 'vitest';
import { runScheduled, type Task } from './scheduler.js';

const task = (key: string, ...dependsOn: string[]): Task => ({ key, dependsOn });

/** A run function that records start and end order and lets the test settle each task by hand. */
function controlled() {
  const events: string[] = [];
  const pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  let running = 0;
  let peak = 0;
  const run = (t: Task) =>
    new Promise<string>((resolve, reject) => {
      events.push(`start ${t.key}`);
      running++;
      peak = Math.max(peak, running);
      pending.set(t.key, {
        resolve: () => {
          running--;
          events.push(`end ${t.key}`);
          resolve(t.key);
        },
        reject: (e) => {
          running--;
          events.push(`fail ${t.key}`);
          reject(e);
        },
      });
    });
  /** Settle tasks as they start, in start order, until the schedule is done. */
  const drive = async (fail: ReadonlySet<string> = new Set()) => {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const next = [...pending.keys()][0];
      if (next === undefined) return;
      const p = pending.get(next);
      pending.delete(next);
      if (fail.has(next)) p?.reject(new Error(`${next} broke`));
      else p?.resolve();
    }
  };
  return { events, run, drive, peak: () => peak };
}

describe('runScheduled', () => {
  it('starts a task only after what it depends on is done', async () => {
    const c = controlled();
    const done = runScheduled(
      [task('group', 'channel'), task('channel'), task('page', 'service'), task('service')],
      c.run,
      {
        parallelism: 1,
      },
    );
    await c.drive();
    const { outcomes, failed } = await done;
    expect(failed).toBe(false);
    expect(c.events).toEqual([
      'start channel',
      'end channel',
      'start service',
      'end service',
      'start group',
      'end group',
      'start page',
      'end page',
    ]);
    expect([...outcomes.values()].every((o) => o.status === 'done')).toBe(true);
  });

  it('runs independent tasks up to the parallelism, never more', async () => {
    const c = controlled();
    const tasks = Array.from({ length: 7 }, (_, i) => task(`t${i}`));
    const done = runScheduled(tasks, c.run, { parallelism: 3 });
    await new Promise((r) => setImmediate(r));
    expect(c.events).toEqual(['start t0', 'start t1', 'start t2']);
    await c.drive();
    await done;
    expect(c.peak()).toBe(3);
  });

  it('a failure skips its dependants, transitively, but not the independent work', async () => {
    const c = controlled();
    const done = runScheduled(
      [task('svc'), task('page', 'svc'), task('incident', 'page'), task('channel'), task('group', 'channel')],
      c.run,
      { parallelism: 1 },
    );
    await c.drive(new Set(['svc']));
    const { outcomes, failed } = await done;
    expect(failed).toBe(true);
    expect(Object.fromEntries([...outcomes].map(([k, o]) => [k, o.status]))).toEqual({
      svc: 'failed',
      page: 'skipped',
      incident: 'skipped',
      channel: 'done',
      group: 'done',
    });
    expect(outcomes.get('incident')).toEqual({ status: 'skipped', because: 'svc' });
  });

  it('with stopOnFailure: what runs finishes, nothing new starts, the rest is not started', async () => {
    const c = controlled();
    const done = runScheduled([task('a'), task('b'), task('c'), task('d')], c.run, {
      parallelism: 2,
      stopOnFailure: true,
    });
    await c.drive(new Set(['a']));
    const { outcomes } = await done;
    expect(Object.fromEntries([...outcomes].map(([k, o]) => [k, o.status]))).toEqual({
      a: 'failed',
      b: 'done',
      c: 'not-started',
      d: 'not-started',
    });
  });

  it('on abort: nothing new starts; what runs finishes', async () => {
    const c = controlled();
    const abort = new AbortController();
    const done = runScheduled([task('a'), task('b'), task('c')], c.run, {
      parallelism: 1,
      signal: abort.signal,
    });
    await new Promise((r) => setImmediate(r));
    abort.abort();
    await c.drive();
    const { outcomes } = await done;
    expect([...outcomes.values()].map((o) => o.status)).toEqual(['done', 'not-started', 'not-started']);
  });

  it('ignores dependencies that are not among the tasks (done before), and a task that names itself', async () => {
    const c = controlled();
    const done = runScheduled([task('group', 'AlertChannel:elsewhere', 'group')], c.run);
    await c.drive();
    expect((await done).outcomes.get('group')?.status).toBe('done');
  });

  it('reports each outcome as it happens, with the value of a done task', async () => {
    const finished: string[] = [];
    const { outcomes } = await runScheduled([task('x'), task('y', 'x')], async (t) => t.key.toUpperCase(), {
      onFinish: (t, o) => finished.push(`${t.key}:${o.status}`),
    });
    expect(finished).toEqual(['x:done', 'y:done']);
    const x = outcomes.get('x');
    expect(x?.status === 'done' && x.value).toBe('X');
  });

  it('starts a task with two dependencies only once both are done', async () => {
    const c = controlled();
    const done = runScheduled([task('a'), task('b'), task('c', 'a', 'b')], c.run, { parallelism: 2 });
    await c.drive();
    await done;
    expect(c.events).toEqual(['start a', 'start b', 'end a', 'end b', 'start c', 'end c']);
  });

  it('settles a task reached from two failed paths once', async () => {
    const finished: string[] = [];
    const { outcomes } = await runScheduled(
      [task('a'), task('b', 'a'), task('c', 'a'), task('d', 'b', 'c')],
      async (t) => {
        if (t.key === 'a') throw new Error('a broke');
      },
      { onFinish: (t, o) => finished.push(`${t.key}:${o.status}`) },
    );
    expect(finished).toEqual(['a:failed', 'b:skipped', 'd:skipped', 'c:skipped']);
    expect(outcomes.get('d')).toEqual({ status: 'skipped', because: 'a' });
  });

  it('tells each start how many tasks run with it', async () => {
    const c = controlled();
    const running: number[] = [];
    const done = runScheduled([task('a'), task('b'), task('c')], c.run, {
      parallelism: 2,
      onStart: (_t, n) => running.push(n),
    });
    await c.drive();
    await done;
    expect(running).toEqual([1, 2, 2]);
  });

  it('measures each task with the clock it is given', async () => {
    let clock = 1000;
    const { outcomes } = await runScheduled(
      [task('ok'), task('broken')],
      async (t) => {
        clock += t.key === 'ok' ? 30 : 70;
        if (t.key === 'broken') throw new Error('broke');
      },
      { parallelism: 1, now: () => clock },
    );
    expect(outcomes.get('ok')).toMatchObject({ status: 'done', durationMs: 30 });
    expect(outcomes.get('broken')).toMatchObject({ status: 'failed', durationMs: 70 });
  });
});
