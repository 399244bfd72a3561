// Node's options for running the server (apps/server/dist/server.js), shared by `npm start` and the
// benchmarks so that they measure what operators run.
//
// A semi-space of 4 MiB: the main thread's young generation is 8 MiB instead of V8's 32. What it
// allocates per request or SMTP session dies within milliseconds, so a smaller one costs more
// frequent (and shorter) scavenges and saves 24 MiB of resident memory under load. The old
// generation's growth is set inside the server (apps/server/src/heap.ts), for every way it starts.
// The flag is process-wide: heap.ts clears it once the main thread runs, so that the store worker
// takes its own young generation (its resourceLimits) instead of this one.
export const SERVER_NODE_OPTIONS = ['--max-semi-space-size=4'];

// glibc's malloc: at most two arenas. By default every thread that allocates may get its own (up to
// eight per core), and the server's threads (the store worker, libuv's pool, V8's helpers) each
// keep their freed memory in theirs: 8–10 MiB more resident under `smtp-source -s 20 -m 3000`
// (bench/README.md), for no measurable change in CPU. An operator's own value wins.
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };
