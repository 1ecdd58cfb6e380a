import { firstOfIndex } from '#shared/db/reads.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { createItem } from '#shared/db/transactions.ts';
import { optionalEnv } from '#shared/env.ts';
import { log } from '#shared/log.ts';
import { isoSeconds } from '#shared/time.ts';
import { escapeHtml, mailer } from '#shared/mail/mailer.ts';
import { consumeOrRefuse, type WindowLimit } from '#shared/domain/rate-limits.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { getUser } from '#shared/domain/identity/users.ts';

/**
 * Support tickets (A8): a user writes to support from an app. Each ticket is stored (the operators'
 * CLI lists them: `npm run admin -- list-tickets`) and mailed to the operators' support address
 * (SUPPORT_EMAIL) with the user's email to reply to. A ticket stands even when the email cannot be
 * sent: the CLI still shows it.
 */
export interface TicketAttributes {
  ticket_id: number;
  user_id: number;
  app_id: number;
  body: string;
  created_at: string;
  updated_at: string;
}

/** A ticket; listed newest first through gsi1 (keys.ticketsIndex). */
const Ticket = defineEntity<TicketAttributes & ReturnType<typeof keys.ticketsIndex>>()({ entity: 'Ticket', key: keys.ticket });

/** Per user: a stolen token must not turn the support mailbox into a spam sink (every ticket counts). */
export const TICKETS_PER_USER: WindowLimit = { name: 'tickets', limit: 10, windowSeconds: 3600 };

/** Where tickets are mailed when the deployment names no address (the local stack's emulator accepts any). */
export const DEFAULT_SUPPORT_EMAIL = 'support@loyalty.local';

export function supportAddress(): string {
  return optionalEnv('SUPPORT_EMAIL') ?? DEFAULT_SUPPORT_EMAIL;
}

export async function createTicket(user: { userId: number; appId: number }, body: string): Promise<TicketAttributes> {
  await consumeOrRefuse(TICKETS_PER_USER, String(user.userId), { object: 'ticket', message: 'Too many support tickets; try again later.' });
  const ticketId = await nextId('ticket');
  const createdAt = new Date();
  const now = isoSeconds(createdAt);
  const ticket: TicketAttributes = { ticket_id: ticketId, user_id: user.userId, app_id: user.appId, body, created_at: now, updated_at: now };
  // The index orders by the creation instant to the millisecond: ticket ids (sharded counters) do not follow creation.
  // Spread: createItem takes any item, and a spread is a plain object type (the entity's is an interface's).
  const created = await createItem({ ...Ticket.at(ticketId).item({ ...keys.ticketsIndex(createdAt.toISOString(), ticketId), ...ticket }) });
  if (!created) throw new Error(`ticket ${ticketId} already exists`);
  await mailSupport(ticket);
  return ticket;
}

async function mailSupport(ticket: TicketAttributes): Promise<void> {
  const [user, app] = await Promise.all([getUser(ticket.user_id), getApp(ticket.app_id)]);
  const from = user ? `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() || user.email : `user ${ticket.user_id}`;
  const replyTo = user?.email ?? 'unknown';
  const appName = app?.name ?? `app ${ticket.app_id}`;
  try {
    await mailer().send({
      to: supportAddress(),
      subject: `Support ticket ${ticket.ticket_id} from ${from} (${appName})`,
      text: [
        `Ticket ${ticket.ticket_id}, ${ticket.created_at}`,
        `From: ${from} <${replyTo}>, user ${ticket.user_id}, through ${appName}`,
        '',
        ticket.body,
      ].join('\n'),
      html: [
        `<p>Ticket ${ticket.ticket_id}, ${escapeHtml(ticket.created_at)}</p>`,
        `<p>From: ${escapeHtml(from)} &lt;${escapeHtml(replyTo)}&gt;, user ${ticket.user_id}, through ${escapeHtml(appName)}</p>`,
        `<pre>${escapeHtml(ticket.body)}</pre>`,
      ].join('\n'),
    });
  } catch (caught) {
    log('warn', 'ticket_email_failed', { ticket_id: ticket.ticket_id, error: (caught as Error).message });
  }
}

/** The newest tickets first, at most `limit` (one Query of the tickets index). */
export async function listTickets(limit: number): Promise<TicketAttributes[]> {
  const { gsi1pk, skPrefix } = keys.tickets();
  const items = await firstOfIndex('gsi1', { pk: gsi1pk, skPrefix }, 'newest-first', limit);
  return items.flatMap((item) => {
    const stored = Ticket.from(item);
    if (!stored) return [];
    const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, entity: _e, ...ticket } = stored;
    return [ticket];
  });
}
