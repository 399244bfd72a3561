// The helper process of accept-copies.ts: for each listening socket it is handed, sends the socket
// back `count` times (each arrives in the server as a new descriptor), then closes its own. It never
// listens on a socket, so it never accepts a connection. It exits when the server disconnects.
interface CopyRequest {
  kind?: string;
  index?: number;
  count?: number;
}

process.on('message', (message: CopyRequest, handle: { close(): void } | undefined) => {
  if (message?.kind !== 'copy' || !handle || typeof message.index !== 'number') return;
  const { index } = message;
  let left = Math.min(Number(message.count) || 0, 256);
  const next = (error?: Error | null) => {
    if (error || left-- <= 0 || !process.send) {
      handle.close();
      return;
    }
    process.send({ kind: 'copy', index }, handle as never, next);
  };
  next();
});
process.on('disconnect', () => process.exit(0));
