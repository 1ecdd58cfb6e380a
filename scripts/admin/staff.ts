/**
 * Staff of `npm run admin` (registered in scripts/admin.ts; docs/merchant-api.md "Migration"):
 * - staff-add-owner: a merchant's first owner, the only owner who appears without another owner inviting them
 *   (refused once the merchant has an owner). They get the invite mail and set their password through its link.
 */
import * as z from '#shared/schemas/zod.ts';
import { addFirstOwner } from '#shared/domain/staff/members.ts';
import { staffInviteBody } from '#shared/schemas/staff.ts';
import { UsageError, integerOption, optionsOf, stringOption, type AdminCommand } from './options.ts';

export const staffAddOwnerCommand: AdminCommand = {
  summary: "Add a merchant's first owner (staff member with every right); they are mailed a link that sets their password.",
  usage: '--merchant-id <id> --email <email> --base-url <the API URL the link opens> [--name <name>]',
  options: optionsOf(['merchant-id', 'email', 'name', 'base-url']),
  async run(values) {
    const merchantId = integerOption(values, 'merchant-id', true);
    const email = stringOption(values, 'email', true);
    const baseUrl = stringOption(values, 'base-url', true).replace(/\/+$/, '');
    if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new UsageError('--base-url must be an http(s) URL');
    // The same checks as an invite through the API (the email's form, the name's length).
    const parsed = z.safeParse(staffInviteBody.shape.staff, { email, name: stringOption(values, 'name') ?? email.split('@')[0], role: 'owner' });
    if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${String(issue.path[0])} ${issue.message}`).join('; '));
    // A refusal (no such merchant, an owner already, an email that signs in already) is the API's error: the CLI prints it.
    return { staff: await addFirstOwner({ merchantId, email: parsed.data.email, name: parsed.data.name, baseUrl }) };
  },
};
