/**
 * evolve's default clock: milliseconds since the epoch with performance.now()'s sub-millisecond
 * resolution (a store write of a fraction of a millisecond still has a duration). Anchored to Date.now()
 * when loaded, it starts less than a millisecond behind it, never ahead: an execution record's startedAt
 * (a Date) taken after a reading is not earlier than that reading's whole millisecond.
 */
const origin = Date.now() - performance.now();
export const preciseNow = (): number => origin + performance.now();
