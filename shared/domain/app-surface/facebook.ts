import { gone } from '#shared/errors.ts';

/**
 * Facebook link and unlink (I13-I14, Android's `POST`/`DELETE /v14/facebook_connection`): Facebook's old login
 * API, whose access tokens these calls carried, no longer exists, so there is nothing to link to. The calls
 * answer 410 Gone in the contract's error format rather than 404: the operation is known, and a client (or its
 * developer reading logs) learns it will not come back. Users sign in by email (docs/app-surface.md).
 */
export function facebookConnectionGone() {
  return gone('user', 'facebook_access_token', 'Facebook login is no longer available: sign in with your email address and password.', 'gone');
}
