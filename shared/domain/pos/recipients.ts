/** The user a merchant names by email (or id) when it gives credit or adjusts progress (P9, P10). */
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { unprocessable } from '#shared/errors.ts';

/** The user with this email or id; `object` names the request in the errors (422 `<object>/email` "Email does not match any User"). */
export async function recipientOf(object: string, named: { email?: string | null; user_id?: number | null }): Promise<number> {
  const email = named.email?.trim() ? named.email.trim() : undefined;
  const userId = named.user_id ?? undefined;
  if (email === undefined && userId === undefined) throw unprocessable(object, 'email', "Email can't be blank (give email or user_id)", 'missing');
  const [login, user] = await readItems([...(email ? [keys.login(email)] : []), ...(userId !== undefined ? [keys.user(userId)] : [])], {
    consistent: false,
  }).then((items) => (email ? [items[0], items[1]] : [undefined, items[0]]));
  if (email !== undefined && login?.subject !== 'user') throw unprocessable(object, 'email', 'Email does not match any User', 'not_found');
  if (userId !== undefined && typeof user?.user_id !== 'number') throw unprocessable(object, 'user_id', 'User ID does not match any User', 'not_found');
  const byEmail = email !== undefined ? (login!.user_id as number) : undefined;
  if (byEmail !== undefined && userId !== undefined && byEmail !== userId)
    throw unprocessable(object, 'base', 'Email and user ID belong to different users', 'mismatch');
  return (byEmail ?? userId)!;
}
