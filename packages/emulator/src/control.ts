import { z } from '@monitor/api/zod';
import { EmulatorConfigError } from './errors.js';
import { type FaultConfig, faultConfigSchema } from './faults.js';
import { type OutcomeRule, outcomeRulesSchema } from './outcomes.js';
import type { AccountConfig, App } from './server.js';

/** How long analyses stay PENDING, in emulator ms; null: they never complete. */
export const rcaDurationSchema = z
  .number()
  .int()
  .min(0)
  .max(365 * 86_400_000)
  .nullable();

/**
 * What tests change in a running emulator, from code (`RunningEmulator.control`) or over HTTP
 * (`/_emulator/*`, which calls these). Values are checked as the HTTP routes check them.
 */
export interface EmulatorControl {
  /** Move emulator time forward by `ms`. */
  advanceClock(ms: number): void;
  /** Replace the injected faults (`{}`: none). */
  setFaults(config: FaultConfig): void;
  /** The outcome rules of an account (the first account when absent). */
  outcomeRules(accountId?: string): OutcomeRule[];
  /** Replace the outcome rules of an account: they decide how runs triggered from now on end. */
  setOutcomeRules(rules: OutcomeRule[], accountId?: string): OutcomeRule[];
  /** How long root cause analyses requested from now on stay PENDING, in emulator ms; null: for ever. */
  rcaDurationMs(): number | null;
  setRcaDurationMs(ms: number | null): void;
}

function checked<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new EmulatorConfigError(`${what} are not valid: ${z.prettifyError(parsed.error)}`, {
    hint: 'see the emulator docs (docs/emulator.md) for their shape',
  });
}

/** The account `id` names, or the first; a coded error for one the emulator does not have. */
export function accountIdOf(accounts: readonly AccountConfig[], id: string | undefined): string {
  const account = id === undefined ? accounts[0] : accounts.find((a) => a.id === id);
  if (account === undefined)
    throw new EmulatorConfigError(`the emulator has no account ${String(id)}`, {
      hint: `use one of ${accounts.map((a) => a.id).join(', ')}, or leave it out for the first`,
    });
  return account.id;
}

export function createControl(app: App, accounts: readonly AccountConfig[]): EmulatorControl {
  const { state } = app;
  const account = (id: string | undefined) => state.store.account(accountIdOf(accounts, id));
  return {
    advanceClock: (ms) => state.clock.advance(checked(z.number().min(0), ms, 'clock moves')),
    setFaults: (config) => app.faults.configure(checked(faultConfigSchema, config, 'faults')),
    outcomeRules: (accountId) => account(accountId).outcomeRules,
    setOutcomeRules: (rules, accountId) => {
      const data = account(accountId);
      data.outcomeRules = checked(outcomeRulesSchema, rules, 'outcome rules');
      state.store.save();
      return data.outcomeRules;
    },
    rcaDurationMs: () => state.rcaDurationMs,
    setRcaDurationMs: (ms) => {
      state.rcaDurationMs = checked(rcaDurationSchema, ms, 'root cause analysis durations');
    },
  };
}
