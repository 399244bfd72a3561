import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept before it
 * collects again: 1 + GROWTH_PERCENT / 100. V8's own factor reaches 4 on a heap this small, so under
 * a stream of SMTP sessions the main thread held up to 80 MiB of promoted garbage on 40 MiB of live
 * objects (and the store worker its own share) before collecting: peak RSS 280–320 MiB where 200
 * is enough. A full collection of some 40 MiB runs mostly on V8's helper threads; at 20 % it comes
 * every 8 MiB of promoted objects.
 */
const GROWTH_PERCENT = 20;

/**
 * Process-wide heap settings, made once at startup, before the store worker starts (it inherits
 * them). The young generation's size is fixed when an isolate starts, so it is set elsewhere: on
 * the command line for the main thread (scripts/server-options.mjs, used by `npm start`) and in the
 * worker's resourceLimits (store/message-store.ts).
 */
export function tuneHeap(): void {
  // Read by V8 at each full collection, so it may change after startup.
  setFlagsFromString(`--heap-growing-percent=${GROWTH_PERCENT}`);
  // `--max-semi-space-size` (the main thread's, from the command line) is a process-wide flag, and
  // V8 lets it win over a worker's own `resourceLimits.maxYoungGenerationSizeMb` when the worker's
  // heap is set up: with it still set, the store worker got the main thread's 8 MiB young
  // generation instead of its own cap (a new space of 8 MiB where the cap of 6 gave 4, measured). The main
  // thread's heap was sized when it started and keeps its semi-space; 0 means "not set", so
  // isolates made from now on size their young generation from their own limits.
  setFlagsFromString('--max-semi-space-size=0');
}
