/**
 * Who may call a route: the request's credentials checked against its row of the route table (`authorize`:
 * the credential kind, then the permissions), and the guards a handler takes its principal through
 * (`requireUser`, `requireMerchant`, `requireMerchantOfPath`, `requireApp`, `requireAnyPermission`). Every refusal is a 401.
 */
import { ApiError, errorDetail, forbidden, unauthorized } from '#shared/errors.ts';
import type { StaffActor } from '#shared/auth/roles.ts';
import { parseAuthorization } from '#shared/auth/header.ts';
import { resolveCredentials, type AppPrincipal, type Credentials, type MerchantPrincipal, type UserPrincipal } from '#shared/auth/tokens.ts';
import type { Permission, Route } from '#shared/routes.ts';

/** The user principal of a request whose route requires one. */
export function requireUser(request: { credentials: Credentials }): UserPrincipal {
  if (!request.credentials.user) throw unauthorized();
  return request.credentials.user;
}

export function requireMerchant(request: { credentials: Credentials }): MerchantPrincipal {
  if (!request.credentials.merchant) throw unauthorized();
  return request.credentials.merchant;
}

/**
 * For operations the SDKs allow with any one of several permissions (Android: `create_orders` or
 * `read_qr_code` for interstitials and feedback); the route table lists permissions that are all required.
 */
/**
 * The merchant principal of a route whose path names the merchant (`/merchants/:merchant_id/...`): a merchant
 * token of another merchant is refused with `message`, about `object`, as the SDKs expect it.
 */
export function requireMerchantOfPath(
  request: { credentials: Credentials; params: { merchant_id: number } },
  message: string,
  object: string,
): MerchantPrincipal {
  const merchant = requireMerchant(request);
  if (merchant.merchantId !== request.params.merchant_id) throw unauthorized(message, object, 'merchant_token');
  return merchant;
}

export function requireAnyPermission(principal: { permissions: readonly string[] }, permissions: readonly Permission[]): void {
  if (permissions.some((permission) => principal.permissions.includes(permission))) return;
  throw new ApiError(401, [
    errorDetail('access_token', 'permissions', `The access token lacks the ${permissions.join(' or the ')} permission.`, 'missing_permission'),
  ]);
}

export function requireApp(request: { credentials: Credentials }): AppPrincipal {
  if (!request.credentials.app) throw unauthorized();
  return request.credentials.app;
}

/**
 * The request's credentials for its route: at once when no token has to be read (a route without
 * credentials, or a request without a token), else a promise of them while the token's read is in flight.
 * A header that refuses the request before any read throws here, as the promise of a refused token rejects:
 * every refusal is a 401, and the request's inputs are never looked at before it (apiHandler).
 */
export function authorize(route: Route, header: string | undefined, pathMerchantId?: string): Credentials | Promise<Credentials> {
  if (route.credential === 'none') return {};
  const presented = parseAuthorization(header);
  if (route.credential === 'app-optional') {
    // The body's api_key is the credential unless a valid app token is sent. iOS sends whatever token it
    // holds on every request, so a user token (or a stale one) here is ignored, not refused.
    if (!presented) return {};
    return resolveCredentials(presented).then((credentials) => (credentials?.app ? { app: credentials.app } : {}));
  }
  if (!presented) {
    if (route.credential === 'user-optional' && !header) return {};
    throw unauthorized(header ? 'Authorization header is malformed.' : 'An access token is required.');
  }
  return resolveCredentials(presented).then((credentials) => admitStaffRole(route, admitStaff(route, admit(route, credentials), pathMerchantId)));
}

/**
 * A `merchant-or-app` route's staff rule (`route.staffRoles`): a staff member's token needs one of its roles (403); an
 * app token and the merchant's shared login are no staff member and pass, as they did before staff logins existed.
 */
function admitStaffRole(route: Route, credentials: Credentials): Credentials {
  const staff = credentials.merchant?.staff;
  if (!route.staffRoles || !staff || route.staffRoles.includes(staff.role)) return credentials;
  throw forbidden(`This operation needs the ${route.staffRoles.join(' or ')} role; this staff member is a ${staff.role}.`, 'role_not_allowed');
}

/**
 * A management route's check (`route.roles`): a staff member's token of the merchant the path names (another
 * merchant's token, or none of a staff member's, is 401 as on every merchant route), with one of the route's roles (403).
 */
function admitStaff(route: Route, credentials: Credentials, pathMerchantId: string | undefined): Credentials {
  if (!route.roles) return credentials;
  const merchant = credentials.merchant;
  if (!merchant || pathMerchantId === undefined || String(merchant.merchantId) !== pathMerchantId) {
    throw unauthorized('The access token is not a merchant token for this merchant.', 'access_token', 'merchant_token');
  }
  if (!merchant.staff) {
    throw forbidden("The merchant's shared login cannot use the management API; sign in as a staff member (docs/merchant-api.md).", 'staff_login_required');
  }
  if (!route.roles.includes(merchant.staff.role)) {
    throw forbidden(`This operation needs the ${route.roles.join(' or ')} role; this staff member is a ${merchant.staff.role}.`, 'role_not_allowed');
  }
  return credentials;
}

/** The staff member calling a management route (admission has checked the merchant and the role). */
export function requireStaff(request: { credentials: Credentials }): StaffActor {
  const merchant = requireMerchant(request);
  if (!merchant.staff) throw unauthorized();
  return { merchantId: merchant.merchantId, staffId: merchant.staff.staffId, role: merchant.staff.role };
}

/** The route's check of the credentials a presented token resolved to: its kind, then its permissions. */
function admit(route: Route, credentials: Credentials | undefined): Credentials {
  if (!credentials) throw unauthorized('The access token is invalid.');
  const principal =
    route.credential === 'merchant'
      ? credentials.merchant
      : route.credential === 'app'
        ? credentials.app
        : route.credential === 'any'
          ? (credentials.user ?? credentials.merchant ?? credentials.app)
          : route.credential === 'merchant-or-app'
            ? (credentials.merchant ?? credentials.app)
            : credentials.user;
  if (!principal) {
    if (route.credential === 'user-optional' && !credentials.merchant && !credentials.app) return credentials;
    throw unauthorized(
      route.credential === 'merchant'
        ? 'A merchant token is required.'
        : route.credential === 'app'
          ? 'An app token is required.'
          : route.credential === 'merchant-or-app'
            ? 'A merchant token or an app token is required.'
            : 'A user token is required.',
    );
  }
  if (route.credential === 'user-unlimited' && !(principal.kind === 'user' && principal.unlimited)) {
    throw unauthorized('This operation needs a token granted by username and password.', 'user', 'base');
  }
  const missing = (route.permissions ?? []).filter((permission) => !principal.permissions.includes(permission));
  if (missing.length > 0) {
    throw new ApiError(
      401,
      missing.map((permission) => errorDetail('access_token', 'permissions', `The access token lacks the ${permission} permission.`, 'missing_permission')),
    );
  }
  return credentials;
}
