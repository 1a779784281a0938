/** The emulator's clock: real time plus an offset that tests move forward or set. */
export class EmulatorClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
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
    this.#offsetMs += ms;
  }

  set(epochMs: number): void {
    this.#offsetMs = epochMs - Date.now();
  }
}
