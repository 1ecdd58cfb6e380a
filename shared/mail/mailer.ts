import { awsClientConfig, loadedOnFirstUse, requireEnv } from '#shared/env.ts';

/**
 * The mailer port: what the API sends by email (password-reset links, permissions-request notices).
 * One implementation, Amazon SES v2's SendEmail: in AWS the function's role may call `ses:SendEmail`
 * on the stack's email identity only (infra/constructs/mail.ts); locally and in tests SES_ENDPOINT
 * points the same client at the SES v2 emulator (`aws-ses-v2-local`), whose mailbox the tests read.
 *
 * MAIL_FROM: the sender, an address of the verified identity. Never log a message body: it may carry
 * a single-use secret (a reset link).
 */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

/**
 * The SES package is loaded on the first email, not at import: the modules that can send one (tickets,
 * campaign pages, password resets...) are in functions most of whose requests send none, and loading
 * @aws-sdk/client-sesv2 at import cost each of their cold starts ~20-40 ms (issue 19).
 */
const sesClient = loadedOnFirstUse(() =>
  import('@aws-sdk/client-sesv2').then(({ SESv2Client, SendEmailCommand }) => ({ client: new SESv2Client(awsClientConfig('SES_ENDPOINT')), SendEmailCommand })),
);

export const sesMailer: Mailer = {
  async send(email) {
    const { client, SendEmailCommand } = await sesClient();
    await client.send(
      new SendEmailCommand({
        FromEmailAddress: requireEnv('MAIL_FROM'),
        Destination: { ToAddresses: [email.to] },
        Content: {
          Simple: {
            Subject: { Data: email.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  },
};

/** The mailer handlers use (one process-wide client, reused across invocations). */
export function mailer(): Mailer {
  return sesMailer;
}

/** Text safe inside HTML (names and app names end up in email bodies). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);
}
