/**
 * The time budget of a clean shutdown (SIGTERM, API.md "Operations": exit 0 within 10 s, nothing
 * acknowledged lost). Listeners let work in flight (an SMTP DATA being stored, an IMAP command
 * being answered) finish for up to `graceMs`, then cut what is left: nothing of it was acknowledged,
 * so the client sends it again. `deadlineMs` after the signal the process exits whatever still runs
 * (a database that does not answer), which is safe for the same reason: a 250, an OK or a
 * delivered webhook is only ever given after the commit.
 */
export const SHUTDOWN_LIMITS = {
  graceMs: 6_000,
  deadlineMs: 9_000,
} as const;
