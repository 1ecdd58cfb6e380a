/**
 * The route table: the single source that both the CDK stack (infra/) and the local gateway
 * (scripts/local/gateway.ts) read, so the deployed API and `npm start` cannot drift.
 *
 * Each route is served by `functions/<handler>.ts`, which exports `handler`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Which credential a route takes.
 * - `none`: no credential (the handler may still read an api_key from the body).
 * - `user` / `merchant`: a token whose subject is of that kind.
 * - `user-optional`: a user token if one is sent, anonymous otherwise.
 * - `user-unlimited`: a user token granted by username and password (not downgraded).
 * - `app`: an app token (api_key + client_secret grant; the app acting as itself).
 * - `app-optional`: a valid app token if one is sent; anything else in the header is ignored (iOS sends whatever
 *   token it holds) and the handler reads an api_key from the body.
 * - `any`: a valid token of any kind (user, merchant or app).
 * - `merchant-or-app`: a merchant token or an app token (the tenants that receive events, docs/events.md).
 */
export type CredentialKind = 'none' | 'user' | 'merchant' | 'user-optional' | 'user-unlimited' | 'app' | 'app-optional' | 'any' | 'merchant-or-app';

export const PERMISSIONS = [
  'read_user_basic_info',
  'manage_user_campaigns',
  'create_orders',
  'read_user_orders',
  'manage_user_addresses',
  'manage_user_payment_methods',
  'read_qr_code',
  'manage_merchant_orders',
  'give_merchant_funded_credit',
  'manage_gift_cards',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const USER_PERMISSIONS: readonly Permission[] = [
  'read_user_basic_info',
  'manage_user_campaigns',
  'create_orders',
  'read_user_orders',
  'manage_user_addresses',
  'manage_user_payment_methods',
  'read_qr_code',
];
export const MERCHANT_PERMISSIONS: readonly Permission[] = ['manage_merchant_orders', 'give_merchant_funded_credit', 'manage_gift_cards'];

/** Staff roles at a merchant, from the most rights to the least (docs/merchant-api.md; shared/auth/roles.ts). */
export const STAFF_ROLES = ['owner', 'manager', 'staff'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Table access a function is granted: `read` gets read-only IAM actions, `write` read and write, `none` neither (nor TABLE_NAME). */
export type TableAccess = 'read' | 'write' | 'none';

/** Memory settings a function may have, in MB (1,769 MB = one vCPU); bench/memory/memory.ts models each from measurement. */
export const LAMBDA_MEMORY_CHOICES = [256, 512, 1024, 1769] as const;
export type LambdaMemory = (typeof LAMBDA_MEMORY_CHOICES)[number];
/** Memory of a route without a measured pick (no bench scenario) and of the non-route functions. */
export const DEFAULT_MEMORY_MB: LambdaMemory = 512;

export interface Route {
  method: HttpMethod;
  /** API Gateway HTTP API path syntax: `{name}` is one path segment. */
  path: string;
  /** Module under functions/ (without extension) that exports `handler`. */
  handler: string;
  credential: CredentialKind;
  /** Every permission listed must be on the token. */
  permissions?: readonly Permission[];
  /**
   * A management route: the credential is `merchant`, the path names `{merchant_id}`, and the token must be a staff
   * member's of that merchant (401 otherwise) with one of these roles (403 otherwise), checked before the handler runs.
   */
  roles?: readonly StaffRole[];
  /**
   * A `merchant-or-app` route a staff member's token may call only with one of these roles (403 `role_not_allowed`
   * otherwise, before the handler runs); app tokens and the merchant's shared login are not staff and pass as before.
   */
  staffRoles?: readonly StaffRole[];
  table: TableAccess;
  /** The function starts executions of the order-ahead validation state machine. */
  startsValidation?: boolean;
  /** The function geocodes addresses: it gets the geocoder's configuration and IAM grant (infra/constructs/geocoder.ts). */
  geocodes?: boolean;
  /** The function starts executions of the order-ahead completion state machine. */
  startsCompletion?: boolean;
  /**
   * Files the function reads at run time, as paths from the repository root: copied beside its bundle
   * (locally read in place; shared/http/bundled-files.ts). Their names must differ from each other and from index.mjs.
   */
  bundledFiles?: readonly string[];
  /** The function sends email through the mailer (shared/mail/): SES `ses:SendEmail` on the stack's identity, nothing else. */
  sendsEmail?: boolean;
  /** The function queues webhook deliveries (replays): `sqs:SendMessage` on the delivery queue and its URL (infra/constructs/webhook-delivery.ts). */
  queuesDeliveries?: boolean;
  /** The function redirects to stored images: IMAGES_BUCKET and `s3:GetObject` on its image keys, nothing else (infra/constructs/images.ts). */
  readsImages?: boolean;
  /** The function signs presigned uploads: IMAGES_BUCKET and `s3:PutObject` on the uploads prefix only (infra/constructs/images.ts). */
  signsUploads?: boolean;
  /** The function's memory, picked by `npm run bench:memory` from measured CPU and wait (docs/cost.md "Memory per function"); DEFAULT_MEMORY_MB when absent. */
  memory?: LambdaMemory;
}

export const routes: readonly Route[] = [
  // Access tokens
  { method: 'POST', path: '/v15/access_tokens', handler: 'access-tokens-create', credential: 'none', table: 'write', memory: 1024 },
  { method: 'POST', path: '/v14/access_tokens', handler: 'access-tokens-create-v14', credential: 'none', table: 'write' },
  { method: 'DELETE', path: '/v15/access_tokens', handler: 'access-tokens-delete', credential: 'any', table: 'write', memory: 512 },
  { method: 'POST', path: '/v15/access_tokens/downgrades', handler: 'access-tokens-downgrade', credential: 'any', table: 'write' },

  // Users
  { method: 'POST', path: '/v14/users', handler: 'users-create', credential: 'none', table: 'write' },
  { method: 'GET', path: '/v15/users', handler: 'users-show', credential: 'user', permissions: ['read_user_basic_info'], table: 'read', memory: 512 },
  { method: 'PUT', path: '/v15/users', handler: 'users-update', credential: 'user-unlimited', table: 'write' },
  { method: 'GET', path: '/v14/users/{id}', handler: 'users-show-v14', credential: 'user', permissions: ['read_user_basic_info'], table: 'read' },
  { method: 'PUT', path: '/v14/users/{id}', handler: 'users-update-v14', credential: 'user-unlimited', table: 'write' },
  // A user and a token with the requested permissions in one call (iOS and docs; Android's older path)
  { method: 'POST', path: '/v15/apps/users', handler: 'apps-users-create', credential: 'app-optional', table: 'write' },
  { method: 'POST', path: '/v15/users', handler: 'users-create-with-permissions', credential: 'none', table: 'write' },
  { method: 'GET', path: '/v15/registration', handler: 'registration-show', credential: 'none', table: 'read' },
  // Push-notification devices (iOS): the app's api_key, and the user token that says whose notifications the device gets
  { method: 'POST', path: '/v15/apn_devices', handler: 'apn-devices-create', credential: 'user-optional', table: 'write' },
  { method: 'DELETE', path: '/v15/apn_devices/{token}', handler: 'apn-devices-delete', credential: 'user-optional', table: 'write' },
  // Facebook link and unlink (Android): gone, Facebook's old login API no longer exists (docs/app-surface.md)
  { method: 'POST', path: '/v14/facebook_connection', handler: 'facebook-connection-create', credential: 'none', table: 'none' },
  { method: 'DELETE', path: '/v14/facebook_connection', handler: 'facebook-connection-delete', credential: 'none', table: 'none' },
  // Password reset by email: the request, the page the emailed link opens, and the page's submission
  { method: 'POST', path: '/v14/passwords', handler: 'passwords-create', credential: 'none', table: 'write' },
  { method: 'GET', path: '/password_reset', handler: 'password-reset-page', credential: 'none', table: 'none' },
  { method: 'POST', path: '/v15/password_resets', handler: 'password-resets-create', credential: 'none', table: 'write' },

  // Permissions requests: an app asks a user (by email); the user accepts or rejects
  { method: 'POST', path: '/v15/apps/permissions_requests', handler: 'permissions-requests-create', credential: 'app', table: 'write' },
  { method: 'GET', path: '/v15/apps/permissions_requests/{id}', handler: 'permissions-requests-show', credential: 'app', table: 'read' },
  { method: 'GET', path: '/v15/permissions_requests', handler: 'permissions-requests-pending-show', credential: 'user-unlimited', table: 'read' },
  { method: 'PUT', path: '/v15/permissions_requests/{id}', handler: 'permissions-requests-answer', credential: 'user-unlimited', table: 'write' },

  // User addresses
  { method: 'GET', path: '/v15/user_addresses', handler: 'user-addresses-list', credential: 'user', permissions: ['manage_user_addresses'], table: 'read' },
  // Addresses sent without coordinates are geocoded.
  {
    method: 'POST',
    path: '/v15/user_addresses',
    handler: 'user-addresses-create',
    credential: 'user',
    permissions: ['manage_user_addresses'],
    table: 'write',
    geocodes: true,
  },
  {
    method: 'PUT',
    path: '/v15/user_addresses/{id}',
    handler: 'user-addresses-update',
    credential: 'user',
    permissions: ['manage_user_addresses'],
    table: 'write',
    geocodes: true,
  },
  {
    method: 'DELETE',
    path: '/v15/user_addresses/{id}',
    handler: 'user-addresses-delete',
    credential: 'user',
    permissions: ['manage_user_addresses'],
    table: 'write',
  },
  {
    method: 'GET',
    path: '/v15/user_addresses/{id}/delivery_location',
    handler: 'user-addresses-delivery-location-show',
    credential: 'user',
    permissions: ['manage_user_addresses'],
    table: 'read',
    memory: 1024,
  },

  // Credit cards and the QR code
  { method: 'GET', path: '/v15/credit_cards', handler: 'credit-cards-list', credential: 'user', permissions: ['manage_user_payment_methods'], table: 'read' },
  {
    method: 'POST',
    path: '/v15/credit_cards',
    handler: 'credit-cards-create',
    credential: 'user',
    permissions: ['manage_user_payment_methods'],
    table: 'write',
  },
  {
    method: 'DELETE',
    path: '/v14/credit_cards/{id}',
    handler: 'credit-cards-delete',
    credential: 'user',
    permissions: ['manage_user_payment_methods'],
    table: 'write',
  },
  // The read replaces a token near its expiry; a rotation replaces it on request (docs/identity.md, "Payment token").
  { method: 'GET', path: '/v15/payment_token', handler: 'payment-token-show', credential: 'user', permissions: ['read_qr_code'], table: 'write' },
  { method: 'GET', path: '/v14/payment_token', handler: 'payment-token-show-v14', credential: 'user', permissions: ['read_qr_code'], table: 'write' },
  {
    method: 'POST',
    path: '/v15/payment_token/rotations',
    handler: 'payment-token-rotations-create',
    credential: 'user',
    permissions: ['read_qr_code'],
    table: 'write',
    memory: 1024,
  },
  // The QR string with tip and colour encoded (JSON, or a PNG: Accept image/png); it renews the token as the read does
  { method: 'GET', path: '/v15/qr_codes', handler: 'qr-codes-show', credential: 'user', permissions: ['read_qr_code'], table: 'write' },
  {
    method: 'GET',
    path: '/v14/credit_cards',
    handler: 'credit-cards-list-v14',
    credential: 'user',
    permissions: ['manage_user_payment_methods'],
    table: 'read',
  },
  {
    method: 'PUT',
    path: '/v14/credit_cards/{id}',
    handler: 'credit-cards-promote',
    credential: 'user',
    permissions: ['manage_user_payment_methods'],
    table: 'write',
  },
  // The app's billing screens (SDK reference A11-A14): the billed card, the options, the user's preference
  {
    method: 'GET',
    path: '/v15/payment_method',
    handler: 'payment-method-show',
    credential: 'user',
    permissions: ['manage_user_payment_methods'],
    table: 'read',
  },
  {
    method: 'DELETE',
    path: '/v15/payment_method',
    handler: 'payment-method-delete',
    credential: 'user',
    permissions: ['manage_user_payment_methods'],
    table: 'write',
  },
  { method: 'GET', path: '/v15/payment_options_summary', handler: 'payment-options-summary-show', credential: 'user-optional', table: 'none' },
  {
    method: 'PUT',
    path: '/v15/apps/payment_preference',
    handler: 'payment-preference-update',
    credential: 'user',
    permissions: ['manage_user_payment_methods'],
    table: 'write',
  },

  // Locations
  { method: 'GET', path: '/v15/apps/{app_id}/locations', handler: 'locations-list', credential: 'none', table: 'read', memory: 1024 },

  // Money: gift cards, in-store orders, refunds, users' orders
  // A user buys gift card value for someone by email (SDK reference A17): charged once, loaded, emailed
  {
    method: 'POST',
    path: '/v15/users/gift_card_value_orders',
    handler: 'gift-card-value-orders-create',
    credential: 'user',
    permissions: ['create_orders'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'GET',
    path: '/v15/users/gift_card_value_orders',
    handler: 'gift-card-value-orders-list',
    credential: 'user',
    permissions: ['read_user_orders'],
    table: 'read',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/gift_card_value_additions',
    handler: 'gift-card-value-additions-create',
    credential: 'merchant',
    permissions: ['manage_gift_cards'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v15/proposed_orders',
    handler: 'proposed-orders-create',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v15/completed_orders',
    handler: 'completed-orders-create',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v14/orders/{uuid}/refund',
    handler: 'orders-refund',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v15/orders/{uuid}/refund',
    handler: 'orders-refund-v15',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
  },
  { method: 'GET', path: '/v15/apps/orders', handler: 'apps-orders-list', credential: 'user', permissions: ['read_user_orders'], table: 'read', memory: 1024 },
  { method: 'GET', path: '/v15/orders/{uuid}', handler: 'orders-show', credential: 'user', permissions: ['read_user_orders'], table: 'read' },

  // Point of sale views (docs/pos.md): merchant-facing orders, a location's orders, managed locations, location details,
  // contribution targets
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/orders/{uuid}',
    handler: 'merchant-orders-show',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v14/merchants/{merchant_id}/orders/{uuid}',
    handler: 'merchant-orders-show-v14',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v14/locations/{location_id}/orders',
    handler: 'location-orders-list',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v15/managed_locations',
    handler: 'managed-locations-list',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'read',
  },
  { method: 'GET', path: '/v15/merchants/{merchant_id}/locations', handler: 'merchant-locations-list', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v14/merchants/{merchant_id}/locations', handler: 'merchant-locations-list-v14', credential: 'merchant', table: 'read' },
  { method: 'GET', path: '/v15/locations/{location_id}', handler: 'locations-show', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v14/locations/{location_id}', handler: 'locations-show-v14', credential: 'none', table: 'read' },
  // Remote checks: the POS publishes and polls a check; the customer claims it and the POS finalises it (a money route)
  { method: 'PUT', path: '/v15/checks', handler: 'checks-create', credential: 'merchant', permissions: ['manage_merchant_orders'], table: 'write' },
  { method: 'PUT', path: '/v15/checks/{uuid}', handler: 'checks-update', credential: 'merchant', permissions: ['manage_merchant_orders'], table: 'write' },
  { method: 'GET', path: '/v15/checks/{uuid}', handler: 'checks-show', credential: 'merchant', permissions: ['manage_merchant_orders'], table: 'read' },
  // A merchant token finalises (manage_merchant_orders), a user token claims (create_orders): checked in the handler.
  { method: 'POST', path: '/v15/checks/{uuid}/orders', handler: 'checks-orders-create', credential: 'any', table: 'write', memory: 1024 },
  { method: 'GET', path: '/v14/contributions/targets', handler: 'contribution-targets-list', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v14/contributions/targets/{id}', handler: 'contribution-targets-show', credential: 'none', table: 'read' },
  // POS money beyond the contract (sdk-operations P1-P10, P22; docs/pos.md): credit checks
  {
    method: 'GET',
    path: '/v15/locations/{location_id}/credit',
    handler: 'locations-credit-show',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'write',
  },
  { method: 'GET', path: '/v14/locations/{location_id}/credit', handler: 'locations-credit-show-v14', credential: 'user-optional', table: 'write' },
  {
    method: 'GET',
    path: '/v15/locations/{location_id}/merchant_funded_credit',
    handler: 'locations-merchant-funded-credit-show',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'GET',
    path: '/v14/locations/{location_id}/merchant_funded_credit',
    handler: 'locations-merchant-funded-credit-show-v14',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/locations/{location_id}/merchant_funded_credit',
    handler: 'locations-merchant-funded-credit-query',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v14/locations/{location_id}/merchant_funded_credit',
    handler: 'locations-merchant-funded-credit-query-v14',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/locations/{location_id}/get_merchant_funded_gift_card_credit',
    handler: 'locations-gift-card-credit-create',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
  },
  // The classic one-step order: proposed and completed at once, through the same settlement saga
  {
    method: 'POST',
    path: '/v15/orders',
    handler: 'orders-create',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
    memory: 1024,
  },
  { method: 'POST', path: '/v14/orders', handler: 'orders-create-v14', credential: 'merchant', permissions: ['manage_merchant_orders'], table: 'write' },
  // POS money movements: each one conditional transaction with its ledger entries, Idempotency-Key on each
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/gift_card_value_removals',
    handler: 'gift-card-value-removals-create',
    credential: 'merchant',
    permissions: ['manage_gift_cards'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v15/detached_refunds',
    handler: 'detached-refunds-create',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v14/detached_refunds',
    handler: 'detached-refunds-create-v14',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/merchant_funded_credits',
    handler: 'merchant-funded-credits-create',
    credential: 'merchant',
    permissions: ['give_merchant_funded_credit'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/progress_adjustments',
    handler: 'progress-adjustments-create',
    credential: 'merchant',
    permissions: ['give_merchant_funded_credit'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/qr_code_validations',
    handler: 'qr-code-validations-create',
    credential: 'merchant',
    permissions: ['manage_merchant_orders'],
    table: 'read',
  },

  // Loyalty: campaigns, claims, unlocks, rewards
  {
    method: 'GET',
    path: '/v15/campaigns/{id}/{representation_type}',
    handler: 'campaigns-show',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'read',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v15/codes/{cohort_code}/claims',
    handler: 'code-claims-create',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/loyalties/legacy/{campaign_id}/claims',
    handler: 'legacy-loyalty-claims-create',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/campaign_unlockings',
    handler: 'campaign-unlockings-create',
    credential: 'merchant',
    permissions: ['give_merchant_funded_credit'],
    table: 'write',
  },
  { method: 'GET', path: '/v15/merchants/{merchant_id}/rewards', handler: 'merchant-rewards-list', credential: 'user-optional', table: 'read', memory: 1024 },
  {
    method: 'PUT',
    path: '/v15/rewards/{reward_id}/pause',
    handler: 'rewards-pause',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'write',
  },
  {
    method: 'DELETE',
    path: '/v15/rewards/{reward_id}/pause',
    handler: 'rewards-unpause',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'write',
  },
  // App surface (SDK reference A1-A4): the merchant loyalty record, rewards by location, their summary, pause by PUT
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/loyalty',
    handler: 'merchant-loyalty-show',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'read',
    memory: 1024,
  },
  {
    method: 'GET',
    path: '/v14/merchants/{merchant_id}/loyalty',
    handler: 'merchant-loyalty-show-v14',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'read',
  },
  { method: 'GET', path: '/v15/locations/{location_id}/rewards', handler: 'location-rewards-list', credential: 'user-optional', table: 'read', memory: 1024 },
  {
    method: 'GET',
    path: '/v15/locations/{location_id}/reward_summary',
    handler: 'location-reward-summary-show',
    credential: 'user-optional',
    table: 'read',
    memory: 1024,
  },
  {
    method: 'PUT',
    path: '/v15/merchants/{merchant_id}/rewards/{claim_id}',
    handler: 'merchant-rewards-update',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'write',
  },
  {
    method: 'PUT',
    path: '/v15/locations/{location_id}/rewards/{claim_id}',
    handler: 'location-rewards-update',
    credential: 'user',
    permissions: ['manage_user_campaigns'],
    table: 'write',
  },

  // Order ahead: menus, suggested carts, start/poll (validated by a state machine), upsells, completion
  // (a second state machine: charge, forward to the ordering provider) and its poll
  { method: 'GET', path: '/v15/order_ahead/locations/{location_id}/menu', handler: 'order-ahead-menus-show', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v15/order_ahead/menus/{menu_id}', handler: 'order-ahead-menus-show-by-id', credential: 'none', table: 'read', memory: 512 },
  {
    method: 'GET',
    path: '/v15/order_ahead/orders/suggested',
    handler: 'order-ahead-suggested-orders-list',
    credential: 'user',
    permissions: ['read_user_orders', 'read_user_basic_info'],
    table: 'read',
    memory: 1024,
  },
  {
    method: 'POST',
    path: '/v15/order_ahead/orders',
    handler: 'order-ahead-orders-create',
    credential: 'user',
    permissions: ['create_orders', 'read_user_basic_info'],
    table: 'write',
    startsValidation: true,
  },
  // The poll records a validation that outlived its deadline as failed.
  {
    method: 'GET',
    path: '/v15/order_ahead/orders/{uuid}',
    handler: 'order-ahead-orders-show',
    credential: 'user',
    permissions: ['create_orders', 'read_user_basic_info'],
    table: 'write',
  },
  { method: 'POST', path: '/v15/upsells', handler: 'upsells-create', credential: 'user', table: 'read' },
  {
    method: 'POST',
    path: '/v15/order_ahead/orders/{uuid}/complete',
    handler: 'order-ahead-orders-complete',
    credential: 'user',
    permissions: ['create_orders'],
    table: 'write',
    startsCompletion: true,
  },
  // The poll rejects (and reverses) a completion that outlived its deadline: the workflow died.
  {
    method: 'GET',
    path: '/v15/order_ahead/orders/{uuid}/complete',
    handler: 'order-ahead-completions-show',
    credential: 'user',
    permissions: ['create_orders'],
    table: 'write',
    memory: 512,
  },

  // App surface beyond the contract (docs/app-surface.md): categories, the screen after an order and its
  // feedback, support tickets
  { method: 'GET', path: '/v14/categories', handler: 'categories-list', credential: 'none', table: 'none' },
  // Either create_orders or read_qr_code (the handler checks: the table lists permissions that are all required)
  { method: 'GET', path: '/v15/orders/{uuid}/interstitial', handler: 'orders-interstitial-show', credential: 'user', table: 'read' },
  { method: 'GET', path: '/v14/orders/{uuid}/interstitial', handler: 'orders-interstitial-show-v14', credential: 'user', table: 'read' },
  { method: 'POST', path: '/v15/orders/{uuid}/feedback', handler: 'orders-feedback-create', credential: 'user', table: 'write' },
  { method: 'POST', path: '/v14/tickets', handler: 'tickets-create', credential: 'user', table: 'write', sendsEmail: true },
  // Campaigns without a user: metadata by location and merchant, v14 campaign, cohort code lookup
  // (counted per client address: table write), campaign merchants
  { method: 'GET', path: '/v15/locations/{location_id}/campaigns', handler: 'locations-campaigns-list', credential: 'none', table: 'read', memory: 512 },
  { method: 'GET', path: '/v15/merchants/{merchant_id}/campaigns', handler: 'merchants-campaigns-list', credential: 'none', table: 'read', memory: 512 },
  // A location's web links (A27): Facebook, Yelp, menu... from the URLs the location has
  { method: 'GET', path: '/v15/locations/{location_id}/web_links', handler: 'locations-web-links-list', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v14/campaigns/{id}', handler: 'campaigns-show-v14', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v14/codes/{code}/campaign', handler: 'codes-campaign-show', credential: 'none', table: 'write' },
  { method: 'GET', path: '/v14/campaigns/{id}/merchants', handler: 'campaigns-merchants-list', credential: 'none', table: 'read' },
  // v14 lists: location summaries by change, an app's locations, the user's orders (Android v14, Ruby)
  { method: 'GET', path: '/v14/locations', handler: 'locations-summaries-list', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v14/apps/{app_id}/locations', handler: 'locations-list-v14', credential: 'none', table: 'read' },
  { method: 'GET', path: '/v14/apps/{app_id}/orders', handler: 'apps-orders-list-v14', credential: 'user', permissions: ['read_user_orders'], table: 'read' },
  { method: 'GET', path: '/v15/users/orders', handler: 'users-orders-list', credential: 'user', permissions: ['read_user_orders'], table: 'read', memory: 512 },
  // Events and signed webhooks (docs/events.md): a merchant's or an app's endpoints, its events, replays. Staff members:
  // owners change endpoints (a URL and a secret decide where the merchant's data goes), owners and managers read.
  {
    method: 'POST',
    path: '/v15/webhook_endpoints',
    handler: 'webhook-endpoints-create',
    credential: 'merchant-or-app',
    staffRoles: ['owner'],
    table: 'write',
    memory: 512,
  },
  {
    method: 'GET',
    path: '/v15/webhook_endpoints',
    handler: 'webhook-endpoints-list',
    credential: 'merchant-or-app',
    staffRoles: ['owner', 'manager'],
    table: 'read',
    memory: 512,
  },
  {
    method: 'DELETE',
    path: '/v15/webhook_endpoints/{id}',
    handler: 'webhook-endpoints-delete',
    credential: 'merchant-or-app',
    staffRoles: ['owner'],
    table: 'write',
    memory: 512,
  },
  {
    method: 'POST',
    path: '/v15/webhook_endpoints/{id}/secrets',
    handler: 'webhook-endpoint-secrets-create',
    credential: 'merchant-or-app',
    staffRoles: ['owner'],
    table: 'write',
    memory: 512,
  },
  {
    method: 'POST',
    path: '/v15/webhook_endpoints/{id}/replays',
    handler: 'webhook-endpoint-replays-create',
    credential: 'merchant-or-app',
    staffRoles: ['owner'],
    table: 'write',
    queuesDeliveries: true,
  },
  {
    method: 'GET',
    path: '/v15/webhook_endpoints/{id}/deliveries',
    handler: 'webhook-endpoint-deliveries-list',
    credential: 'merchant-or-app',
    staffRoles: ['owner', 'manager'],
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v15/events',
    handler: 'events-list',
    credential: 'merchant-or-app',
    staffRoles: ['owner', 'manager'],
    table: 'read',
    memory: 512,
  },
  // Management API, reports and exports (docs/merchant-api.md, "Reports and exports"): aggregates the stream keeps, CSV by index
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/reports/daily',
    handler: 'merchant-reports-daily-show',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/exports/orders.csv',
    handler: 'merchant-exports-orders-show',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/exports/ledger.csv',
    handler: 'merchant-exports-ledger-show',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'read',
  },
  // Management API: the audit log and each owner's or manager's own manager code (docs/merchant-api.md, "Audit log", "Manager codes")
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/audit_log',
    handler: 'audit-log-list',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'read',
  },
  { method: 'GET', path: '/v15/merchants/{merchant_id}/audit_log.csv', handler: 'audit-log-export', credential: 'merchant', roles: ['owner'], table: 'read' },
  {
    method: 'PUT',
    path: '/v15/merchants/{merchant_id}/staff/me/manager_code',
    handler: 'manager-code-update',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },
  // Images: 302 to a signed URL of the stored size (docs/app-surface.md "Images"); uploads are the operators' CLI
  { method: 'GET', path: '/v14/locations/{location_id}/image', handler: 'locations-image-show-v14', credential: 'none', table: 'read', readsImages: true },
  { method: 'GET', path: '/v15/locations/{location_id}/image', handler: 'locations-image-show', credential: 'none', table: 'read', readsImages: true },
  { method: 'GET', path: '/v14/campaigns/{id}/image', handler: 'campaigns-image-show', credential: 'none', table: 'read', readsImages: true },
  { method: 'GET', path: '/v15/campaigns/{id}/icon', handler: 'campaigns-icon-show', credential: 'none', table: 'read', readsImages: true },
  {
    method: 'GET',
    path: '/v15/order_ahead/menus/{menu_id}/items/{item_id}/image',
    handler: 'order-ahead-menu-item-image-show',
    credential: 'none',
    table: 'read',
    readsImages: true,
  },

  // Management API: a merchant's staff and their roles (docs/merchant-api.md "Staff"); the invite mail goes through the outbox
  { method: 'GET', path: '/v15/merchants/{merchant_id}/staff', handler: 'staff-list', credential: 'merchant', roles: ['owner', 'manager'], table: 'read' },
  { method: 'POST', path: '/v15/merchants/{merchant_id}/staff', handler: 'staff-create', credential: 'merchant', roles: ['owner'], table: 'write' },
  { method: 'GET', path: '/v15/merchants/{merchant_id}/staff/me', handler: 'staff-me-show', credential: 'merchant', roles: STAFF_ROLES, table: 'read' },
  { method: 'PUT', path: '/v15/merchants/{merchant_id}/staff/{staff_id}', handler: 'staff-update', credential: 'merchant', roles: ['owner'], table: 'write' },
  {
    method: 'DELETE',
    path: '/v15/merchants/{merchant_id}/staff/{staff_id}',
    handler: 'staff-delete',
    credential: 'merchant',
    roles: ['owner'],
    table: 'write',
  },
  // Management API: a merchant's locations as it sets them (docs/merchant-api.md "Locations"). The list is not
  // `.../locations`: that GET is the contract's public list of shown locations.
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/all_locations',
    handler: 'location-settings-list',
    credential: 'merchant',
    roles: STAFF_ROLES,
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}',
    handler: 'location-settings-show',
    credential: 'merchant',
    roles: STAFF_ROLES,
    table: 'read',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/locations',
    handler: 'location-settings-create',
    credential: 'merchant',
    roles: ['owner'],
    table: 'write',
  },
  {
    method: 'PUT',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}',
    handler: 'location-settings-update',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },
  // A location's picture by presigned upload (docs/merchant-api.md "Locations: images"): the browser sends the file to
  // S3; functions/location-image-uploads-process.ts (S3's event, not a route) resizes and records it.
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}/image_uploads',
    handler: 'location-image-uploads-create',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
    signsUploads: true,
  },
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}/image_uploads/{upload_id}',
    handler: 'location-image-uploads-show',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'read',
  },

  // Management API: a location's order-ahead menu as a draft, published whole (docs/merchant-api.md "Menus"); apps read
  // only the published menu (GET /v15/order_ahead/locations/{location_id}/menu).
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft',
    handler: 'menu-drafts-show',
    credential: 'merchant',
    roles: STAFF_ROLES,
    table: 'read',
  },
  {
    method: 'PUT',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft',
    handler: 'menu-drafts-update',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/publish',
    handler: 'menu-drafts-publish',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/discard',
    handler: 'menu-drafts-discard',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },

  // Management API: a merchant's campaigns (docs/merchant-api.md "Campaigns"). The list is `.../all_campaigns` (as `.../all_locations`): the
  // public `GET /v15/merchants/{merchant_id}/campaigns` (A19) answers apps the open ones.
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/all_campaigns',
    handler: 'managed-campaigns-list',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'read',
  },
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/campaigns/{campaign_id}',
    handler: 'managed-campaigns-show',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'read',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/campaigns',
    handler: 'managed-campaigns-create',
    credential: 'merchant',
    roles: ['owner'],
    table: 'write',
  },
  {
    method: 'PUT',
    path: '/v15/merchants/{merchant_id}/campaigns/{campaign_id}',
    handler: 'managed-campaigns-update',
    credential: 'merchant',
    roles: ['owner'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/campaigns/{campaign_id}/close',
    handler: 'managed-campaigns-close',
    credential: 'merchant',
    roles: ['owner'],
    table: 'write',
  },

  // Management API: a merchant's customers (docs/merchant-api.md "Customers"). Finding and reading: every role;
  // grants and unlockings: owner and manager (their own token approves). The reads write: lookups are counted, and
  // a customer's due credit grants expire before their balance is shown.
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/customer_lookups',
    handler: 'customer-lookups-create',
    credential: 'merchant',
    roles: STAFF_ROLES,
    table: 'write',
  },
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/customers/{user_id}',
    handler: 'customers-show',
    credential: 'merchant',
    roles: STAFF_ROLES,
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/customers/{user_id}/credit_grants',
    handler: 'customer-credit-grants-create',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/customers/{user_id}/campaign_unlockings',
    handler: 'customer-campaign-unlockings-create',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },
  // Management API: a merchant's orders (docs/merchant-api.md "Orders"): reading for every role, refunds for owners and managers
  // through the POS's own refund and detached refund. The POS's `GET .../orders/{uuid}` stays the shared login's; the detail is `/details`.
  { method: 'GET', path: '/v15/merchants/{merchant_id}/orders', handler: 'managed-orders-list', credential: 'merchant', roles: STAFF_ROLES, table: 'read' },
  {
    method: 'GET',
    path: '/v15/merchants/{merchant_id}/orders/{uuid}/details',
    handler: 'managed-orders-show',
    credential: 'merchant',
    roles: STAFF_ROLES,
    table: 'read',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/orders/{uuid}/refund',
    handler: 'managed-orders-refund',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },
  {
    method: 'POST',
    path: '/v15/merchants/{merchant_id}/detached_refunds',
    handler: 'managed-detached-refunds-create',
    credential: 'merchant',
    roles: ['owner', 'manager'],
    table: 'write',
  },

  // API description: the OpenAPI document and the human docs page rendering it (docs/openapi.md)
  { method: 'GET', path: '/openapi.json', handler: 'openapi-show', credential: 'none', table: 'none', bundledFiles: ['docs/openapi.json'] },
  { method: 'GET', path: '/docs', handler: 'docs-show', credential: 'none', table: 'none' },
  {
    method: 'GET',
    path: '/docs/assets/{file}',
    handler: 'docs-assets-show',
    credential: 'none',
    table: 'none',
    bundledFiles: ['node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'node_modules/swagger-ui-dist/swagger-ui.css'],
  },
];

/** Serves API Gateway's `$default` route: anything no route above matches (404, or 405 for a known path). */
export const FALLBACK_HANDLER = 'route-not-found';

/** Path parameter names of a route path, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/** Matches a concrete path against a route path; returns its parameters or undefined. */
export function matchPath(routePath: string, actualPath: string): Record<string, string> | undefined {
  const routeSegments = routePath.split('/');
  const actualSegments = actualPath.split('/');
  if (routeSegments.length !== actualSegments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < routeSegments.length; i++) {
    const expected = routeSegments[i]!;
    const actual = actualSegments[i]!;
    const param = /^\{(.+)\}$/.exec(expected);
    if (param) {
      if (actual === '') return undefined;
      try {
        params[param[1]!] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

export function findRoute(handler: string): Route {
  const route = routes.find((candidate) => candidate.handler === handler);
  if (!route) throw new Error(`No route in shared/routes.ts is served by functions/${handler}.ts`);
  return route;
}
