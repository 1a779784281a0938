/**
 * The emulator's clock. Running (default): real time plus an offset that tests move forward or
 * set. Manual: time stands still except when moved, so lifecycles are exact in tests.
 */
export class EmulatorClock {
  #offsetMs = 0;
  #frozenAt: number | undefined;

  constructor(mode: 'running' | 'manual' = 'running') {
    if (mode === 'manual') this.#frozenAt = Date.now();
  }

  get mode(): 'running' | 'manual' {
    return this.#frozenAt === undefined ? 'running' : 'manual';
  }

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Today as an ISO date, the form the service uses for server-set `date` fields. */
  today(): string {
    return this.nowIso().slice(0, 10);
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    if (this.#frozenAt === undefined) this.#offsetMs += ms;
    else this.#frozenAt += ms;
  }

  set(epochMs: number): void {
    if (this.#frozenAt === undefined) this.#offsetMs = epochMs - Date.now();
    else this.#frozenAt = epochMs;
  }
}
