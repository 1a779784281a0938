import { ALERT_SETTINGS_DEFAULT } from '@monitor/api/definitions';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** When alerts are sent at all: the group's escalation settings, or the account's. */
export interface Escalation {
  /** The account's global alert settings apply instead of the group's. */
  useGlobalAlertSettings: boolean;
  escalationType: 'RUN_BASED' | 'TIME_BASED' | null;
  failedRunThreshold?: number;
  minutesFailingThreshold?: number;
  reminders: { amount: number; interval: number };
  parallelRunFailureThreshold: { enabled: boolean; percentage: number };
  /** In words: `after 2 failed runs, no reminders`. */
  description: string;
}

/** `settings[field][key]` when it is a number, else `fallback`. */
function numberAt(settings: Record<string, unknown>, field: string, key: string, fallback: number): number {
  const value = (settings[field] as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'number' ? value : fallback;
}

export function escalationOf(payload: Record<string, unknown>): Escalation {
  const global = payload.useGlobalAlertSettings === true;
  const settings: Record<string, unknown> | undefined =
    payload.alertSettings === null || typeof payload.alertSettings !== 'object'
      ? undefined
      : { ...ALERT_SETTINGS_DEFAULT, ...(payload.alertSettings as Record<string, unknown>) };
  const type =
    settings?.escalationType === 'TIME_BASED' || settings?.escalationType === 'RUN_BASED'
      ? settings.escalationType
      : null;
  const d = ALERT_SETTINGS_DEFAULT;
  const s = settings ?? {};
  const runs = numberAt(
    s,
    'runBasedEscalation',
    'failedRunThreshold',
    d.runBasedEscalation.failedRunThreshold,
  );
  const minutes = numberAt(
    s,
    'timeBasedEscalation',
    'minutesFailingThreshold',
    d.timeBasedEscalation.minutesFailingThreshold,
  );
  const reminders = {
    amount: numberAt(s, 'reminders', 'amount', d.reminders.amount),
    interval: numberAt(s, 'reminders', 'interval', d.reminders.interval),
  };
  const parallel = {
    enabled: (s.parallelRunFailureThreshold as { enabled?: unknown } | undefined)?.enabled === true,
    percentage: numberAt(
      s,
      'parallelRunFailureThreshold',
      'percentage',
      d.parallelRunFailureThreshold.percentage,
    ),
  };
  const words: string[] = [];
  if (global) words.push("the account's global alert settings (the group's are not used)");
  else if (settings === undefined) words.push('none set');
  else {
    words.push(
      type === 'TIME_BASED'
        ? `after ${plural(minutes, 'minute')} failing`
        : `after ${plural(runs, 'failed run')}`,
    );
    words.push(
      reminders.amount > 0
        ? `then ${plural(reminders.amount, 'reminder')} every ${plural(reminders.interval, 'minute')}`
        : 'no reminders',
    );
    if (parallel.enabled) words.push(`when ${parallel.percentage}% of parallel runs fail`);
  }
  return {
    useGlobalAlertSettings: global,
    escalationType: type,
    ...(type === 'RUN_BASED' ? { failedRunThreshold: runs } : {}),
    ...(type === 'TIME_BASED' ? { minutesFailingThreshold: minutes } : {}),
    reminders,
    parallelRunFailureThreshold: parallel,
    description: words.join(', '),
  };
}
