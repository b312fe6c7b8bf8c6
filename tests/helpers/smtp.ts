import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the in-process SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
}

/**
 * A real SMTP server in the test process (smtp-server, no TLS, any login accepted): the store
 * talks SMTP to it exactly as to a provider. `refuse` makes it answer 550 or drop for a while.
 */
export async function startSmtpServer() {
  const messages: ReceivedMail[] = [];
  const state = { refuseWith: 0 };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onData(stream, session, callback) {
      if (state.refuseWith) {
        stream.resume();
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: state.refuseWith });
        stream.on('end', () => callback(error));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    messages,
    /** Answer every message with this SMTP code (550 permanent, 451 temporary); 0 accepts again. */
    refuse(code: number) {
      state.refuseWith = code;
    },
    async waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const found = messages.find(predicate);
        if (found) return found;
        await Bun.sleep(50);
      }
      throw new Error(`no matching e-mail within ${timeoutMs} ms; received: ${messages.map((m) => `${m.to.join(',')} "${m.subject}"`).join('; ') || 'none'}`);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
