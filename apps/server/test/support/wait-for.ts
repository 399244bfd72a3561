export interface WaitForOptions {
  /** how long the condition has to come true; 10 s unless told */
  timeoutMs?: number;
  /** how long to wait between two checks; 50 ms unless told */
  intervalMs?: number;
  /** what is awaited, for the message on timeout ("the bounce", "the relay to receive DATA") */
  what?: string;
}

/** What a condition returns while it does not hold yet. */
type NotYet = undefined | null | false;

/**
 * Checks `condition` every `intervalMs` until it returns something other than undefined, null or
 * false, and returns that; fails after `timeoutMs` saying what was awaited and what the last check
 * returned. A check that throws fails at once: only "not yet" is retried.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 50, what = 'the condition' }: WaitForOptions = {},
): Promise<Exclude<T, NotYet>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, NotYet>;
    if (Date.now() >= deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what} (the last check gave ${String(value)})`,
      );
    }
    await sleep(intervalMs);
  }
}

/**
 * Lets time pass. Only for tests where the passing time is the point (an entry that must expire, a
 * window in which nothing more may arrive); anything that waits for something to happen uses
 * {@link waitFor}.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
