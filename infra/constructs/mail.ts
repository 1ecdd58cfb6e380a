import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { ApiFunction } from './api-function.ts';

export interface MailProps {
  /** The sender (MAIL_FROM), e.g. `Loyalty <no-reply@mail.example.com>`; its address must belong to `identity`. */
  from: string;
  /** The SES identity to create and send as: a domain (verify it with the DKIM records SES lists) or one address. */
  identity: string;
  /** The functions of the routes marked `sendsEmail` in shared/routes.ts. */
  senders: readonly ApiFunction[];
  /** Where support tickets (POST /v14/tickets) are mailed: SUPPORT_EMAIL. @default support@ the identity's domain */
  support?: string;
}

/** The address inside `Name <address>` (or the string itself). */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

/**
 * Email for the mailer port (shared/mail/mailer.ts): one Amazon SES identity, and for each sending
 * function MAIL_FROM plus `ses:SendEmail` on that identity's ARN only (not SendRawEmail, not `*`).
 * Until SES verifies the identity (DNS records for a domain, a click for an address) and the account
 * leaves the SES sandbox, SES refuses to send; docs/identity.md "Email" says how to set it up.
 */
export class Mail extends Construct {
  public readonly identity: EmailIdentity;

  public constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    if (!props.identity.includes('@') && !addressOf(props.from).toLowerCase().endsWith(`@${props.identity.toLowerCase()}`)) {
      throw new Error(`The sender ${props.from} is not an address of the mail identity ${props.identity}`);
    }
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: props.identity.includes('@') ? Identity.email(props.identity) : Identity.domain(props.identity),
    });
    const support = props.support ?? (props.identity.includes('@') ? props.identity : `support@${props.identity}`);
    for (const fn of props.senders) {
      fn.addEnvironment('MAIL_FROM', props.from);
      fn.addEnvironment('SUPPORT_EMAIL', support);
      this.identity.grant(fn, 'ses:SendEmail');
    }
  }
}
