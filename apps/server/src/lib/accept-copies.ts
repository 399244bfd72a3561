import { fork } from 'node:child_process';
import { Server, type Socket } from 'node:net';
import { compiledScript } from './compiled-script.js';

/**
 * Accepts on copies of each listening socket, so that a busy event loop still takes new
 * connections at the rate they come.
 *
 * libuv (1.45 on, so Node 20 and later) accepts one connection each time round the event loop
 * (libuv/libuv#3696). When the loop is busy serving the connections it already has (100 keep-alive
 * clients make each turn about 50 ms long), new connections wait in the kernel's queue, one turn
 * each: measured on `bench/inbox-heavy.mjs`, the first request of a fresh connection waited up to
 * 4 s while the others were answered in 100 ms (nodejs/node#57364 is the same effect).
 *
 * Every copy of the socket (the same listening socket under another descriptor, as Node's cluster
 * workers share one) is watched by the loop on its own and accepts one connection a turn, so with
 * `ACCEPT_COPIES` copies a turn takes up to `ACCEPT_COPIES + 1` connections. Node has no `dup()`:
 * a short-lived helper process (accept-copies-helper.ts) is handed the socket over the IPC channel
 * and hands it back as many times, each arriving as a new descriptor (SCM_RIGHTS). The helper never
 * listens on it, so it never takes a connection; it exits once it has sent the copies.
 *
 * What a copy accepts goes to the server's own `connection` listeners, so HTTP, TLS and
 * smtp-server see it as their own (their limits are counted there, not in net.Server's
 * `maxConnections`, which a copy does not share: servers that rely on it must not be given copies).
 * Once the server stops listening, a copy refuses whatever it still takes. Copies never keep the
 * process alive. When the helper cannot run, the servers keep their one descriptor and a warning
 * is logged: slower to accept under load, nothing else.
 */
export const ACCEPT_COPIES = 15;

/** How long the helper may take to send every copy back. */
const HELPER_TIMEOUT_MS = 10_000;

interface Logger {
  warn(message: string): void;
}

export interface AcceptCopies {
  /** How many copies each server got, in the order given. */
  readonly counts: readonly number[];
  /** How many connections the copies have taken so far (the servers' own descriptors not counted). */
  accepted(): number;
  /** Stops the copies accepting (a server's own close does not reach them). */
  close(): void;
}

/** Gives each listening server in `servers` up to `copies` more descriptors to accept on. */
export async function acceptOnCopies(
  servers: readonly Server[],
  options: { log: Logger; copies?: number },
): Promise<AcceptCopies> {
  const copies = options.copies ?? ACCEPT_COPIES;
  const counts = servers.map(() => 0);
  const opened: Server[] = [];
  let accepted = 0;
  const result: AcceptCopies = {
    counts,
    accepted: () => accepted,
    close: () => {
      for (const copy of opened) copy.close();
    },
  };
  const handles = servers.map((server) => (server as Server & { _handle?: object | null })._handle ?? null);
  if (copies <= 0 || handles.some((handle) => handle === null)) return result;

  const helper = fork(compiledScript(import.meta.url, './accept-copies-helper.js'), [], {
    // Neither the server's Node options (a --cpu-prof, heap sizes) nor its output.
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const wanted = servers.length * copies;
  let received = 0;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      options.log.warn(
        `accept copies: the helper sent ${received} of ${wanted} in ${HELPER_TIMEOUT_MS} ms; stopped`,
      );
      helper.kill('SIGKILL');
      resolve();
    }, HELPER_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    helper.on('message', (message: { kind?: string; index?: number }, handle) => {
      if (message?.kind !== 'copy' || typeof message.index !== 'number' || !handle) return;
      const server = servers[message.index];
      if (!server) return;
      const copy = new Server((socket: Socket) => {
        if (!server.listening) {
          socket.destroy();
          return;
        }
        accepted++;
        server.emit('connection', socket);
      });
      copy.on('error', (error) => options.log.warn(`accept copies: ${error.message}`));
      copy.listen(handle as never);
      copy.unref();
      opened.push(copy);
      counts[message.index] = (counts[message.index] ?? 0) + 1;
      if (++received === wanted) done();
    });
    helper.on('error', (error) => {
      options.log.warn(`accept copies: the helper did not start (${error.message}); one accept per turn`);
      done();
    });
    helper.on('exit', () => {
      if (received < wanted) options.log.warn(`accept copies: the helper sent ${received} of ${wanted}`);
      done();
    });
    handles.forEach((handle, index) => {
      helper.send({ kind: 'copy', index, count: copies }, handle as never, (error) => {
        if (error) options.log.warn(`accept copies: ${error.message}`);
      });
    });
  });
  if (helper.connected) helper.disconnect();
  return result;
}
