import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/*
 * Where a message leaves the store: an SMTP server (nodemailer), or, in development without
 * one, an .eml file per message in DATA_DIR/mail that any mail program opens.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The outbox row, for the file name and the Message-ID. */
  id: number;
  kind: string;
}

export interface SentMail {
  /** The SMTP Message-ID, or the .eml file's path. */
  messageId: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

/** A refusal the server will give again (SMTP 5xx): retrying soon is pointless. */
export function isPermanentMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

function messageIdFor(message: MailMessage, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox-${message.id}.${Date.now().toString(36)}@${domain}>`;
}

/** The one MIME shape of an outbox message, whichever transport carries it. */
function envelope(message: MailMessage, from: string, replyTo?: string) {
  return {
    from,
    // The sender is a no-reply address: a reply reaches the shop's support inbox instead.
    ...(replyTo ? { replyTo } : {}),
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: messageIdFor(message, from),
    headers: { 'X-CSA-Kind': message.kind },
  };
}

export function smtpTransport(url: string, from: string, replyTo?: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    // A slow or silent server must not hold the mail job for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      const info = await transporter.sendMail(envelope(message, from, replyTo));
      return { messageId: info.messageId };
    },
    close: () => transporter.close(),
  };
}

/** Development without SMTP_URL: the same MIME message nodemailer would send, written to a file. */
export function fileTransport(dir: string, from: string, replyTo?: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transporter.sendMail(envelope(message, from, replyTo));
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const path = join(dir, `${stamp}-${message.id}-${message.kind}.eml`);
      // Messages carry reset links: readable by the store's user only.
      writeFileSync(path, info.message as Buffer, { mode: 0o600 });
      return { messageId: path };
    },
    close: () => transporter.close(),
  };
}
