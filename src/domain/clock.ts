/**
 * Where the caches and throttles of the domain read the time, in epoch milliseconds. Production
 * uses the system clock; a test passes a clock it moves forward, so that it waits for a cache to
 * expire without sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
