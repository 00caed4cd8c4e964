import type { Clock } from '../src/domain/clock.ts';

/**
 * The system clock plus an offset that a test moves forward: a cache that expires after a second
 * is expired after `advance(1_100)`, at once. Time still passes as usual between advances, and
 * the database's own clock is not moved.
 */
export class AdvanceableClock implements Clock {
  #offsetMilliseconds = 0;

  now(): number {
    return Date.now() + this.#offsetMilliseconds;
  }

  advance(milliseconds: number): void {
    this.#offsetMilliseconds += milliseconds;
  }
}
