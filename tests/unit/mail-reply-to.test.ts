import { describe, expect, test } from 'bun:test';
import { composeEmail, linkTo, withPublicUrl } from '../../src/domain/mail/compose.ts';
import { fileTransport, smtpTransport } from '../../src/domain/mail/transport.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Issue 27, item 12: the store writes from a no-reply address, so every message carries a
 * Reply-To that reaches SUPPORT_EMAIL; a link written inside the text is absolute (PUBLIC_URL)
 * in the plain part and an anchor in the HTML part.
 */

const message = {
  id: 3,
  kind: 'order_confirmation',
  to: 'lena@example.com',
  subject: 'Your order',
  text: 'Reply to this message.',
  html: '<p>Reply to this message.</p>',
};

describe('Reply-To', () => {
  test('a message sent over SMTP has the no-reply sender and a Reply-To of the support address', async () => {
    const smtp = await startSmtpServer();
    try {
      const transport = smtpTransport(smtp.url, '"CSA" <no-reply@shop.example.com>', 'help@shop.example.com');
      await transport.send(message);
      transport.close();
      expect(smtp.messages).toHaveLength(1);
      const received = smtp.messages[0]!;
      expect(received.from).toContain('no-reply@shop.example.com');
      expect((received.headers.get('reply-to') as { text: string }).text).toBe('help@shop.example.com');
    } finally {
      await smtp.stop();
    }
  });

  test('the development .eml file carries the same Reply-To', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'csa-reply-')), 'mail');
    const { messageId: path } = await fileTransport(dir, '"CSA" <no-reply@localhost>', 'help@localhost').send(message);
    expect(readFileSync(path, 'utf8')).toMatch(/^Reply-To: help@localhost$/m);
  });
});

describe('links inside the text', () => {
  test('absolute from PUBLIC_URL in the text part, a clickable anchor in the HTML part; the full stop stays text', () => {
    const body = composeEmail({ heading: 'You won!', paragraphs: ['Well played.'], footnote: `The full result of this game: ${linkTo('/games/1')}. Thanks.` });
    const text = withPublicUrl(body.text, 'https://shop.example.com/');
    const html = withPublicUrl(body.html, 'https://shop.example.com/');
    expect(text).toContain('The full result of this game: https://shop.example.com/games/1. Thanks.');
    expect(html).toContain('<a href="https://shop.example.com/games/1">https://shop.example.com/games/1</a>. Thanks.');
    expect(text).not.toMatch(/[^m]\/games\/1/);
  });

  test('text a user typed stays escaped and is never turned into a link', () => {
    const body = composeEmail({ heading: 'h', paragraphs: ['<a href="https://evil.example">x</a> {{PUBLIC_URL}}"><script>'] });
    expect(body.html).not.toContain('<script>');
    expect(body.html).not.toContain('href="https://evil.example"');
  });
});
