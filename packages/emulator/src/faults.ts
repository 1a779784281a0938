import { z } from '@monitor/api/zod';
import { seededRandom } from './random.js';

/** "The Nth (or every Nth) request matching METHOD PATH": which requests a rule applies to. */
const requestRule = z.strictObject({
  method: z.string().min(1),
  /** A concrete path or a route template (`/v2/check-groups`); any path when absent. */
  path: z.string().optional(),
  /** Only the Nth matching request (1-based). */
  nth: z.number().int().min(1).optional(),
  /** Every Nth matching request. */
  every: z.number().int().min(1).optional(),
});

/**
 * Every fault the emulator can inject: the one definition that the start options, the
 * `/_emulator/faults` endpoint and its docs all follow.
 */
export const faultConfigSchema = z.strictObject({
  /** Seed of the fault dice; the same seed gives the same faults for the same request sequence. */
  seed: z.number().int().optional(),
  /** Added latency in ms: a fixed value or [min, max]. */
  latencyMs: z.union([z.number().min(0), z.tuple([z.number().min(0), z.number().min(0)])]).optional(),
  /** Share of requests answered 5xx before processing (0–1). */
  serverErrorRate: z.number().min(0).max(1).optional(),
  /** @default 503 */
  serverErrorStatus: z.number().int().min(500).max(599).optional(),
  /** Share of requests answered 429 before processing (0–1). */
  rateLimitRate: z.number().min(0).max(1).optional(),
  /** Share of requests whose connection is reset before processing (0–1). */
  resetRate: z.number().min(0).max(1).optional(),
  /** Matching requests are processed, then their connection is dropped without an answer. */
  dropAfterProcessing: z.array(requestRule).optional(),
  /** Matching requests are processed, then answered only after `ms`: a client that dies meanwhile wrote without hearing back. */
  holdAfterProcessing: z.array(requestRule.extend({ ms: z.number().int().min(1).max(600_000) })).optional(),
  /** Matching requests are refused with a 400 whose message quotes the request body, as some servers do. */
  echoBodyInBadRequest: z.array(requestRule).optional(),
});

export type FaultConfig = z.infer<typeof faultConfigSchema>;
/** "The Nth request matching METHOD PATH is processed, then its connection is dropped." */
export type DropRule = z.infer<typeof requestRule>;
/** "The Nth request matching METHOD PATH is processed, then its answer waits `ms`." */
export type HoldRule = NonNullable<FaultConfig['holdAfterProcessing']>[number];

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'reset' }
  | { kind: 'rateLimit' }
  | { kind: 'serverError'; status: number };

/** Rolls the configured faults, deterministically from the seed. */
export class Faults {
  config: FaultConfig = {};
  #random: () => number = seededRandom(0);
  #matches = new Map<DropRule | HoldRule, number>();

  configure(config: FaultConfig): void {
    this.config = config;
    this.#random = seededRandom(config.seed ?? 0);
    this.#matches = new Map();
  }

  latency(): number {
    const l = this.config.latencyMs;
    if (l === undefined) return 0;
    if (typeof l === 'number') return l;
    return l[0] + this.#random() * (l[1] - l[0]);
  }

  /** Faults that answer instead of processing. */
  before(): FaultDecision {
    const c = this.config;
    if (c.resetRate !== undefined && this.#random() < c.resetRate) return { kind: 'reset' };
    if (c.rateLimitRate !== undefined && this.#random() < c.rateLimitRate) return { kind: 'rateLimit' };
    if (c.serverErrorRate !== undefined && this.#random() < c.serverErrorRate) {
      return { kind: 'serverError', status: c.serverErrorStatus ?? 503 };
    }
    return { kind: 'none' };
  }

  /** Whether to drop the connection of this processed request instead of answering. */
  dropAfter(method: string, path: string, template: string): boolean {
    let drop = false;
    for (const rule of this.config.dropAfterProcessing ?? []) {
      if (this.#hits(rule, method, path, template)) drop = true;
    }
    return drop;
  }

  /** How long to hold the answer of this processed request (0: answer now). */
  holdAfter(method: string, path: string, template: string): number {
    let ms = 0;
    for (const rule of this.config.holdAfterProcessing ?? []) {
      if (this.#hits(rule, method, path, template)) ms = Math.max(ms, rule.ms);
    }
    return ms;
  }

  /** Whether to refuse this request with a 400 that quotes its body. */
  echoBody(method: string, path: string, template: string): boolean {
    let echo = false;
    for (const rule of this.config.echoBodyInBadRequest ?? []) {
      if (this.#hits(rule, method, path, template)) echo = true;
    }
    return echo;
  }

  /** Counts a request matching the rule's method and path; true when the rule's nth/every is hit. */
  #hits(rule: DropRule, method: string, path: string, template: string): boolean {
    if (rule.method.toUpperCase() !== method) return false;
    if (rule.path !== undefined && rule.path !== path && rule.path !== template) return false;
    const n = (this.#matches.get(rule) ?? 0) + 1;
    this.#matches.set(rule, n);
    return (rule.nth !== undefined && n === rule.nth) || (rule.every !== undefined && n % rule.every === 0);
  }
}
