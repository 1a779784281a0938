export interface RequestLogEntry {
  method: string;
  path: string;
  /** Path template of the route, when it is a service route. */
  route?: string;
  operation?: string;
  /** 0 when the connection was dropped without an answer. */
  status: number;
  accountId?: string;
  fault?: string;
  durationMs: number;
  /** When the request arrived, in ms since the epoch: what tests count in a window of the rate limit. */
  at: number;
}

/** How many requests the log keeps unless told otherwise. */
export const DEFAULT_REQUEST_LOG_SIZE = 1000;

/** The most recent requests, at most `capacity` of them: the oldest make way for new ones. */
export class RequestLog {
  readonly capacity: number;
  /** Requests logged since the start or the last `clear`, kept or not. */
  total = 0;
  readonly #ring: RequestLogEntry[] = [];
  /** Where the next entry goes once the ring is full; it holds the oldest entry. */
  #next = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  push(entry: RequestLogEntry): void {
    this.total++;
    if (this.capacity === 0) return;
    if (this.#ring.length < this.capacity) {
      this.#ring.push(entry);
      return;
    }
    this.#ring[this.#next] = entry;
    this.#next = (this.#next + 1) % this.capacity;
  }

  /** How many entries are kept now. */
  get kept(): number {
    return this.#ring.length;
  }

  /** The kept entries, oldest first, as a new array. */
  entries(): RequestLogEntry[] {
    return [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)];
  }

  clear(): void {
    this.#ring.length = 0;
    this.#next = 0;
    this.total = 0;
  }
}
