import { type Answer, type Call, mustGet, ok, table } from '../context.js';
import { hashString, seededRandom } from '../random.js';

const MAX_POINTS = 300;

export const privateLocationHandlers = {
  /** Queue metrics, synthetic but the same for the same location and window. */
  'privateLocations.metrics': (call: Call): Answer => {
    const location = mustGet(table(call, 'privateLocations'), call.params.id, 'Private location');
    const { from, to } = call.query as { from: number; to: number };
    const step = Math.max(60, Math.ceil((to - from) / MAX_POINTS));
    const timestamps: string[] = [];
    const queueSize: number[] = [];
    const oldestScheduledCheckRun: number[] = [];
    for (let t = from - (from % step); t <= to; t += step) {
      const rnd = seededRandom(hashString(`${String(location.id)}:${t}`));
      timestamps.push(new Date(t * 1000).toISOString());
      queueSize.push(Math.floor(rnd() * 12));
      oldestScheduledCheckRun.push(Math.floor(rnd() * 45_000));
    }
    return ok({ timestamps, queueSize, oldestScheduledCheckRun });
  },
};
