/**
 * Facebook link and unlink (functions/facebook-connection-create.ts, functions/facebook-connection-delete.ts):
 * both answer 410 Gone whatever the body or token (shared/domain/app-surface/facebook.ts says why).
 */
import { facebookConnectionGone } from '#shared/domain/app-surface/facebook.ts';

export const facebookConnectionSpec = {
  description: "Facebook's old login API no longer exists: answered 410 with code `gone`. Users sign in with email and password.",
};

export async function serveFacebookConnectionGone(): Promise<never> {
  throw facebookConnectionGone();
}
