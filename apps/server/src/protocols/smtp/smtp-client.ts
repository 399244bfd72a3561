/**
 * The client side of an SMTP transaction (RFC 5321 section 3.3) over nodemailer's smtp-connection:
 * EHLO, STARTTLS (RFC 3207), AUTH (RFC 4954), MAIL, RCPT, DATA, and what each reply means for each
 * recipient (RFC 5321 section 4.2.1: 2yz done, 4yz try again, 5yz give up). Which servers to try,
 * in which order and with which TLS policy is the caller's business (modules/sending).
 */
import type { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

/**
 * What a server said, kept for a bounce (RFC 3464 section 2.3: Diagnostic-Code, Remote-MTA):
 * `reply` is its reply line as sent, `remoteMta` the host that gave it. Both are absent when no
 * server answered (DNS trouble, connection refused).
 */
export interface ServerAnswer {
  reply?: string;
  remoteMta?: string;
}

/** What one delivery attempt came to. */
export type AttemptOutcome =
  | ({ kind: 'delivered'; response: string } & ServerAnswer)
  /** 4xx, no server reachable, DNS trouble: try again later */
  | ({ kind: 'temporary'; error: string } & ServerAnswer)
  /**
   * 5xx or a domain that cannot receive mail: give up now. `status` is the RFC 3463 code when no
   * reply carries one (a null MX, a domain that does not exist).
   */
  | ({ kind: 'permanent'; error: string; status?: string } & ServerAnswer);

/** An error as nodemailer's smtp-connection reports it (the fields it sets). */
export interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message: string;
  /** the recipient a RCPT TO error is about */
  recipient?: string;
  /** with "all recipients were rejected": each recipient's own error */
  rejectedErrors?: SmtpFailure[];
}

/** Reply text without the line breaks of a multi-line answer, short enough to store and show. */
function oneLine(text: string): string {
  return text
    .replace(/\s*\r?\n\s*/g, ' ')
    .trim()
    .slice(0, 1000);
}

/**
 * What a failure means for the recipients it concerns. `where` names the server in our own texts,
 * `remoteMta` is kept with the reply it gave (RFC 3464 section 2.3.5).
 */
export function classify(error: SmtpFailure, where: string, remoteMta: string): AttemptOutcome {
  const code = error.responseCode;
  const answer = oneLine(error.response || error.message);
  const said: ServerAnswer = error.response && code !== undefined ? { reply: answer, remoteMta } : {};
  if (error.code === 'EAUTH') {
    // The relay refused our credentials: the operator must fix the relay setting, the message is
    // fine, so keep it queued rather than fail it.
    return {
      kind: 'temporary',
      error: `中继服务器拒绝了登录凭据（${answer}），请管理员检查中继设置`,
      ...said,
    };
  }
  // RFC 5321 section 4.2.1: 5yz is a permanent failure, 4yz a transient one.
  if (code !== undefined && code >= 500 && code < 600) return { kind: 'permanent', error: answer, ...said };
  if (code !== undefined && code >= 400 && code < 500) return { kind: 'temporary', error: answer, ...said };
  return { kind: 'temporary', error: `${where}：${error.code ?? ''} ${oneLine(error.message)}`.trim() };
}

/** RFC 5321 section 4.5.3.1.8 lets servers refuse more than 100 RCPTs; we stay well below. */
export const MAX_RECIPIENTS_PER_TRANSACTION = 50;

export interface Transaction {
  from: string;
  /** the recipients of one domain (one MX), at most MAX_RECIPIENTS_PER_TRANSACTION */
  recipients: string[];
  size: number;
  /** opens a fresh stream of the message for each attempt */
  open(): Readable;
}

export interface ConnectTarget {
  host: string;
  port: number;
  secure: boolean;
  /** name for TLS (SNI and, for relays, certificate checking) */
  servername: string;
  /** check the certificate: yes for a relay we give credentials to, no for opportunistic MX TLS */
  verify: boolean;
  ignoreTLS?: boolean;
  user?: string | null;
  pass?: string | null;
}

export interface TransactionResult {
  /** one outcome per recipient, in the order of `Transaction.recipients` */
  outcomes: AttemptOutcome[];
  /** the failure that ended the transaction for everyone (connection, TLS, greeting, AUTH, MAIL) */
  failure: AttemptOutcome | null;
  /** the server never answered a command, so the next address may be tried */
  connectFailed: boolean;
}

/** The key nodemailer gives a recipient back under (it trims; servers may echo any case). */
function recipientKey(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * The envelope errors nodemailer collected before DATA failed. It keeps each refused RCPT's error
 * on the connection's envelope but does not hand them to the callback when the message itself
 * fails afterwards, and a recipient refused with 4xx must not inherit the DATA failure (it may
 * still be delivered later), so they are read from there.
 */
function envelopeRejections(connection: SMTPConnection): SmtpFailure[] {
  const envelope = (connection as unknown as { _envelope?: { rejectedErrors?: SmtpFailure[] } })._envelope;
  return envelope?.rejectedErrors ?? [];
}

/**
 * One SMTP transaction over nodemailer's connection: EHLO, STARTTLS when offered (opportunistic,
 * RFC 3207; nodemailer upgrades whenever the server advertises it), AUTH for relays, MAIL, one
 * RCPT per recipient, DATA. Each recipient gets its own outcome (RFC 5321 section 3.3): the reply
 * to its RCPT when that refused it, else the reply to the message; a failure before the
 * recipients (connection, greeting, TLS, AUTH, MAIL) is everyone's.
 */
export function transact(
  target: ConnectTarget,
  heloName: string,
  message: Transaction,
  signal: AbortSignal,
): Promise<TransactionResult> {
  return new Promise((resolve) => {
    const connection = new SMTPConnection({
      host: target.host,
      port: target.port,
      secure: target.secure,
      name: heloName,
      ignoreTLS: target.ignoreTLS ?? false,
      tls: { servername: target.servername, rejectUnauthorized: target.verify },
      connectionTimeout: 30_000,
      greetingTimeout: 60_000,
      // RFC 5321 section 4.5.3.2 lists minutes per command; 5 minutes covers the slow DATA answer.
      socketTimeout: 5 * 60_000,
      logger: false,
    });
    const where = target.servername;
    let settled = false;
    let connected = false;
    const finish = (outcomes: AttemptOutcome[], failure: AttemptOutcome | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', abort);
      if (outcomes.some((outcome) => outcome.kind === 'delivered')) connection.quit();
      else connection.close();
      resolve({ outcomes, failure, connectFailed: !connected });
    };
    const everyone = (outcome: AttemptOutcome) =>
      finish(
        message.recipients.map(() => outcome),
        outcome,
      );
    /** Per recipient: its own RCPT refusal if it had one, else `otherwise`. */
    const each = (rejections: SmtpFailure[], otherwise: (rcpt: string) => AttemptOutcome) => {
      const refused = new Map(rejections.map((error) => [recipientKey(error.recipient ?? ''), error]));
      finish(
        message.recipients.map((rcpt) => {
          const error = refused.get(recipientKey(rcpt));
          return error ? classify(error, where, where) : otherwise(rcpt);
        }),
        null,
      );
    };
    const abort = () => everyone({ kind: 'temporary', error: '投递因服务停止而中断' });
    signal.addEventListener('abort', abort, { once: true });
    connection.on('error', (error: SmtpFailure) => everyone(classify(error, `连接 ${where}`, where)));
    connection.connect((error?: SmtpFailure) => {
      if (error) return everyone(classify(error, `连接 ${where}`, where));
      connected = true;
      const send = () =>
        connection.send(
          { from: message.from, to: message.recipients, size: message.size },
          message.open(),
          (sendError, info) => {
            if (sendError) {
              const failure = sendError as SmtpFailure;
              // Every RCPT refused: each recipient has its own answer.
              if (failure.command === 'RCPT TO' && failure.rejectedErrors?.length) {
                return each(failure.rejectedErrors, () => classify(failure, where, where));
              }
              // The message failed (DATA): the refused recipients keep their RCPT answers.
              if (failure.command === 'DATA') {
                return each(envelopeRejections(connection), () => classify(failure, where, where));
              }
              return everyone(classify(failure, where, where));
            }
            const accepted = new Set((info?.accepted ?? []).map((rcpt) => recipientKey(String(rcpt))));
            const response = oneLine(info?.response ?? '');
            each((info?.rejectedErrors ?? []) as SmtpFailure[], (rcpt) =>
              accepted.has(recipientKey(rcpt))
                ? { kind: 'delivered', response, reply: response, remoteMta: where }
                : { kind: 'temporary', error: `${where}：服务器没有答复这个收件人` },
            );
          },
        );
      if (target.user) {
        connection.login({ user: target.user, pass: target.pass ?? '' }, (loginError) => {
          if (loginError) everyone(classify(loginError as SmtpFailure, where, where));
          else send();
        });
      } else {
        send();
      }
    });
  });
}
