import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** Reads one complete SMTP reply (RFC 5321 4.2: continuation lines use `-` after the code). */
export function reply(socket: Socket | TLSSocket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const last = text.split('\r\n').filter(Boolean).at(-1) ?? '';
      if (text.endsWith('\r\n') && /^\d{3} /.test(last)) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/** Sends one command line and reads its reply. */
export async function command(socket: Socket | TLSSocket, line: string): Promise<string> {
  const answer = reply(socket);
  socket.write(`${line}\r\n`);
  return answer;
}
