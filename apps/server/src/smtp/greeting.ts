import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

/** The parts of smtp-server 3.21.6's SMTPConnection (pinned exactly in package.json) used below. */
interface ConnectionInternals {
  _server: { connections: Set<unknown>; options: { maxClients?: number } };
  name: string;
  _setListeners(callback: () => void): void;
  connectionReady(): void;
  send(code: number, message: string, commandName?: string | false): void;
}

let applied = false;

/**
 * smtp-server waits a fixed 100 ms after accepting a connection before it even asks onConnect, to
 * catch clients that talk before the greeting. Postfix's smtpd greets at once (its pregreet test
 * belongs to postscreen, which is off by default), and so do we: most senders open a connection per
 * message, and the wait alone held every source to ten messages a second per connection (twenty
 * parallel sessions could not pass 190 messages a second however fast the store was). A client that
 * does talk first still gets smtp-server's "421 You talk too soon": onConnect (the blacklist) runs
 * before the greeting, and input before it is refused as before.
 *
 * Replaces `SMTPConnection.prototype.init` with the same steps minus the timer; applied once per
 * process, before the first listener starts.
 */
export function greetWithoutDelay(): void {
  if (applied) return;
  applied = true;
  (SMTPConnection.prototype as unknown as { init(): void }).init = function (this: ConnectionInternals) {
    this._setListeners(() => {
      const { maxClients } = this._server.options;
      if (maxClients && this._server.connections.size > maxClients) {
        this.send(421, `${this.name} Too many connected clients, try again in a moment`, false);
        return;
      }
      this.connectionReady();
    });
  };
}
