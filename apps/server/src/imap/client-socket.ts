import type { Socket } from 'node:net';
import { type SecureContext, TLSSocket } from 'node:tls';

/**
 * One mail client's connection as the IMAP and POP3 sessions use it: bytes received and not yet read
 * (the socket paused above `maxPendingBytes`, resumed below half of it), writes that wait for the
 * socket to drain, an idle timeout that says goodbye, closing, and the STARTTLS/STLS upgrade that
 * drops whatever the client sent before the handshake (RFC 3501 section 6.2.1, RFC 2595 section 4),
 * and the server's shutdown: once `shutdown.signal` aborts, the next read (at once when the session
 * waits for its client, IDLE included; after the command in progress otherwise) says goodbye and
 * closes, so no response is cut in the middle.
 */
export class ClientSocket {
  private socket: Socket;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private paused = false;
  private wake: (() => void) | null = null;
  private ended = false;
  private stopping = false;
  private readonly stopListening: () => void = () => {};

  constructor(
    socket: Socket,
    private readonly options: {
      maxPendingBytes: number;
      /** written when the idle timeout ends the connection */
      farewell: () => Buffer;
      /** the server is shutting down: `farewell` is written before the connection closes */
      shutdown?: { signal: AbortSignal; farewell: () => Buffer };
    },
  ) {
    this.socket = socket;
    this.attach(socket);
    const shutdown = options.shutdown;
    if (shutdown?.signal.aborted) this.stopping = true;
    else if (shutdown) {
      const stop = () => {
        this.stopping = true;
        this.wake?.();
      };
      shutdown.signal.addEventListener('abort', stop, { once: true });
      this.stopListening = () => shutdown.signal.removeEventListener('abort', stop);
    }
  }

  get closed(): boolean {
    return this.ended;
  }

  setIdleTimeout(ms: number): void {
    this.socket.setTimeout(ms);
  }

  write(bytes: Buffer): void {
    if (!this.ended && !this.socket.destroyed) this.socket.write(bytes);
  }

  /** Writes and waits for the socket to take more (large message bodies). */
  async writeAndDrain(bytes: Buffer): Promise<void> {
    if (this.ended || this.socket.destroyed) return;
    if (this.socket.write(bytes)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }

  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.stopListening();
    this.socket.end();
    this.socket.destroySoon?.();
    setTimeout(() => this.socket.destroy(), 1_000).unref();
    this.wake?.();
  }

  /** The next bytes the client sent, or null once the connection is closed. */
  async nextChunk(): Promise<Buffer | null> {
    for (;;) {
      if (this.ended) return null;
      if (this.stopping) {
        if (this.options.shutdown) this.write(this.options.shutdown.farewell());
        this.close();
        return null;
      }
      const chunk = this.pending.shift();
      if (chunk !== undefined) {
        this.pendingBytes -= chunk.length;
        if (this.paused && this.pendingBytes < this.options.maxPendingBytes / 2) {
          this.paused = false;
          this.socket.resume();
        }
        return chunk;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
  }

  /**
   * Continues the connection over TLS (the caller has answered the STARTTLS/STLS command): bytes
   * received before the handshake are dropped, and the idle timeout starts again at `idleTimeoutMs`.
   */
  startTls(
    secureContext: SecureContext,
    sniCallback: TlsSniCallback | undefined,
    idleTimeoutMs: number,
  ): void {
    this.pending = [];
    this.pendingBytes = 0;
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('timeout');
    const secured = new TLSSocket(plain, {
      isServer: true,
      secureContext,
      ...(sniCallback ? { SNICallback: sniCallback } : {}),
    });
    this.socket = secured;
    this.attach(secured);
    secured.setTimeout(idleTimeoutMs);
  }

  private attach(socket: Socket): void {
    socket.on('data', (chunk: Buffer) => {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes > this.options.maxPendingBytes && !this.paused) {
        this.paused = true;
        socket.pause();
      }
      this.wake?.();
    });
    socket.on('timeout', () => {
      this.write(this.options.farewell());
      this.close();
    });
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }
}

type TlsSniCallback = (
  servername: string,
  callback: (error: Error | null, context?: SecureContext) => void,
) => void;
