import type { Db } from '../../src/db/client.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { answeredWorkDone } from '../../src/domain/operations/after-answer.ts';
import { sendPendingEmails } from '../../src/domain/mail/sender.ts';
import type { MailMessage } from '../../src/domain/mail/transport.ts';

/**
 * Sends what the outbox holds through a recording transport, as the mail job would, and returns
 * what went out; first waits for work queued after an answer (a reset link is queued that way).
 */
export async function deliverOutbox(ctx: { db: Db; clock: Clock }, publicUrl = 'https://shop.example.com'): Promise<MailMessage[]> {
  await answeredWorkDone();
  const sent: MailMessage[] = [];
  await sendPendingEmails({
    db: ctx.db,
    clock: ctx.clock,
    publicUrl,
    transport: {
      send: async (message) => {
        sent.push(message);
        return { messageId: `<${sent.length}@test>` };
      },
      close() {},
    },
  });
  return sent;
}
