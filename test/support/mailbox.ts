import { inject } from 'vitest';
import { sentEmails, type SentEmail } from '../../scripts/local/ses.ts';

/**
 * Mail the run's SES v2 emulator received for one address (tests use unique addresses), polling with a
 * deadline: mail goes out from the table's stream after the answer (the mail outbox), so it may take the
 * local stream reader a few polls.
 */
export async function mailTo(address: string, options: { atLeast?: number; timeoutMs?: number } = {}): Promise<SentEmail[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const mail = (await sentEmails(inject('sesEndpoint'))).filter((email) =>
      email.destination.to.some((to) => to.toLowerCase().includes(address.toLowerCase())),
    );
    if (mail.length >= (options.atLeast ?? 1) || Date.now() > deadline) return mail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The password-reset link of an email (its text part). */
export function resetLinkIn(email: SentEmail): string {
  const link = /(https?:\/\/\S+\/password_reset#token=[0-9a-f]+)/.exec(email.body.text ?? '')?.[1];
  if (!link) throw new Error(`no reset link in: ${email.body.text}`);
  return link;
}
