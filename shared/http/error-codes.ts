/**
 * The error-code catalogue: every `code` an error of the contract's error body
 * (`[{"error": {"object", "property", "message", "code"}}]`) can carry, the statuses it comes with, when, and what
 * the client should do. One source: the OpenAPI document's `ErrorDetail.code` enum and its `x-error-codes`
 * (shared/openapi/document.ts) and docs/errors.md (`npm run openapi` writes both) are made from it.
 *
 * test/openapi/error-codes.unit.test.ts fails when the source answers a code this catalogue lacks, or with a
 * status it does not list; every response of the test suite is validated against the document, so an answered
 * code missing here fails the test that provoked it. Nothing deployed imports this file.
 */

export interface ErrorCodeEntry {
  /** The HTTP statuses an error with this code comes with. */
  statuses: readonly number[];
  /** When it is answered. */
  when: string;
  /** What the client should do. */
  action: string;
}

const FIX_REQUEST = 'Correct the field the error names (`object`, `property`) and send the request again.';
const RETRY_SHORTLY = 'Retry after the `Retry-After` seconds, with the same Idempotency-Key where the operation takes one: nothing was changed.';
const START_AGAIN = 'Show the message; change the order and start a new order ahead order (POST /v15/order_ahead/orders).';

export const ERROR_CODES = {
  // The request pipeline's own answers (shared/http/handler.ts, validation.ts; the local gateway and API Gateway).
  malformed_json: { statuses: [400], when: 'The request body is not valid JSON.', action: 'Send a JSON body (or none).' },
  unsupported_media_type: {
    statuses: [415],
    when: 'A request body whose Content-Type is not JSON.',
    action: 'Send `Content-Type: application/json` with a JSON body.',
  },
  too_large: {
    statuses: [413, 422],
    when: 'A request body over 64 KB (413); a credit grant over the most that may be given at once (422).',
    action: 'Send a smaller body; grant at most the amount the message names.',
  },
  too_deep: {
    statuses: [422],
    when: 'A body nesting objects and arrays too deep; a page number past the pages reached without a cursor; a token downgraded too many times in a chain.',
    action: 'Flatten the body; follow the `Link` header instead of counting pages; downgrade an earlier token.',
  },
  too_many_values: { statuses: [422], when: 'A body holding more values than any real request needs.', action: 'Send fewer values.' },
  missing: { statuses: [422], when: 'A required field is absent or null.', action: FIX_REQUEST },
  invalid: {
    statuses: [422],
    when: 'A field fails its validation (type, format, range, an unknown value), or a payment nonce or encrypted card data cannot be used.',
    action: FIX_REQUEST,
  },
  blank: { statuses: [422], when: 'A required amount is absent (a check order without `spend_amount`).', action: FIX_REQUEST },
  too_long: {
    statuses: [422],
    when: 'A text is longer than its limit (receipt message, identifier from merchant, special instructions).',
    action: 'Shorten it to the limit the message names.',
  },
  too_many: {
    statuses: [422],
    when: "A list or collection is at its limit: saved addresses, webhook endpoints, gift cards paused together, custom attribute keys, a merchant's staff, a merchant's campaigns.",
    action: 'Remove one (or send fewer) before adding more.',
  },
  ambiguous: {
    statuses: [422],
    when: "A customer lookup by phone that more than one of the merchant's customers (or more users than a lookup weighs) have.",
    action: 'Look the customer up by email.',
  },
  out_of_range: { statuses: [422], when: 'A preload value outside the allowed range.', action: 'Choose a value within the range the message names.' },
  below_minimum: { statuses: [422], when: 'A gift card amount under the minimum ($10.00).', action: 'Send at least the minimum.' },
  above_maximum: { statuses: [422], when: 'A gift card order over the maximum ($500.00).', action: 'Send at most the maximum.' },
  not_positive: { statuses: [422], when: 'An amount that must be positive is zero or negative.', action: 'Send a positive amount.' },
  zero: { statuses: [422], when: 'A progress adjustment of zero.', action: 'Send a non-zero adjustment.' },
  internal_error: {
    statuses: [500],
    when: 'An unexpected failure on our side.',
    action: 'Retry later with the same Idempotency-Key where there is one; report the `X-Request-Id` if it persists.',
  },
  timeout: {
    statuses: [503],
    when: 'The request outlived its time limit; it may still complete.',
    action: 'Retry after `Retry-After` with the same Idempotency-Key to learn its outcome.',
  },
  not_found: {
    statuses: [404, 422],
    when: 'No route serves the path (404); a resource the route names in its 404 body is not there or not yours (404: credit card, registration email); a referenced merchant or location does not exist (422).',
    action: 'Check the path, the id or the referenced record; do not retry unchanged.',
  },
  method_not_allowed: {
    statuses: [405],
    when: 'The path is served, but not for this method; the `Allow` header lists those it is.',
    action: 'Use a method the `Allow` header names.',
  },
  throttled: {
    statuses: [429],
    when: 'Too many requests from one credential or address (API Gateway or the local gateway throttle).',
    action: 'Slow down; retry after `Retry-After`.',
  },

  // Credentials (docs/security.md, docs/identity.md).
  not_authorized: {
    statuses: [401],
    when: 'No token, a malformed, unknown, expired or revoked one, the wrong kind of token for the route, or a token that may not act on this resource (a user, location or merchant it does not serve).',
    action: 'Get a valid token of the kind the operation names (POST /v15/access_tokens) and send it in the Authorization header.',
  },
  staff_login_required: {
    statuses: [403],
    when: "A management operation called with the merchant's shared login (the POS login from before staff), not a staff member's.",
    action: "Sign in with the staff member's own email and password (POST /v15/access_tokens); docs/merchant-api.md.",
  },
  role_not_allowed: {
    statuses: [403],
    when: "A management operation the staff member's role does not allow (the operation lists its roles in `x-roles`).",
    action: 'Ask an owner of the merchant to do it, or to change your role.',
  },
  missing_permission: {
    statuses: [401],
    when: 'The token lacks a permission the operation requires (the operation lists them in `x-permissions`).',
    action: 'Ask the user for the permission (a permissions request) or use a token that holds it.',
  },
  invalid_credentials: { statuses: [422], when: 'Wrong email address or password at login.', action: 'Ask the user to check them, or reset the password.' },
  invalid_api_key: { statuses: [422], when: "The app's api_key is unknown.", action: "Use the app's api_key." },
  invalid_client_secret: { statuses: [422], when: "The app's client_secret does not match its api_key.", action: "Use the app's client_secret." },
  login_locked: {
    statuses: [429],
    when: 'Too many failed logins for this account.',
    action: 'Wait for `Retry-After`, or reset the password.',
  },
  too_many_failed_logins: { statuses: [429], when: 'Too many failed logins from this client.', action: 'Wait for `Retry-After` before logging in again.' },
  rate_limited: {
    statuses: [429],
    when: 'Over a limit of this operation (password resets, permissions requests, webhook replays, ...; docs/security.md).',
    action: 'Retry after `Retry-After`.',
  },
  unknown_permission: {
    statuses: [422],
    when: 'A token downgrade names a permission that does not exist.',
    action: 'Request only the permissions the API defines.',
  },
  not_held: {
    statuses: [422],
    when: 'A token downgrade asks for a permission the token does not hold.',
    action: 'Request a subset of the token’s permissions.',
  },
  invalid_permissions: {
    statuses: [422],
    when: 'Permission keynames missing or invalid (app users, permissions requests).',
    action: 'Send a non-empty list of valid keynames.',
  },
  invalid_token: { statuses: [422], when: 'A password reset link is invalid, used or expired.', action: 'Ask for a new password reset.' },
  taken: {
    statuses: [422],
    when: "The email address already signs in to an account (a user's, a staff member's or a merchant's login); a first owner for a merchant that has one; a campaign's cohort code already in use.",
    action: 'Log in with that account, or use another email address (or cohort code).',
  },
  pending_exists: { statuses: [422], when: 'This email already has a pending permissions request.', action: 'Wait for the user to answer it.' },
  already_answered: {
    statuses: [422],
    when: 'The permissions request was already accepted, rejected or expired.',
    action: 'Create a new permissions request if still needed.',
  },
  invalid_url: {
    statuses: [422],
    when: 'A webhook endpoint URL that is not https to a public host (docs/events.md).',
    action: 'Use an https URL on a public host name.',
  },
  not_for_audience: {
    statuses: [422],
    when: 'A webhook endpoint subscribes to event types another kind of tenant receives.',
    action: 'Subscribe only to your audience’s types (docs/events.md).',
  },

  // Concurrency and idempotency (docs/money.md): nothing changed, retrying wins.
  in_flight: { statuses: [409], when: 'A request with the same Idempotency-Key is still being served.', action: RETRY_SHORTLY },
  in_progress: { statuses: [409], when: 'Another request is changing the same resource (an order, credit, webhook endpoints, a user).', action: RETRY_SHORTLY },
  customer_busy: { statuses: [409], when: 'Another order of the same customer is being completed.', action: RETRY_SHORTLY },
  balance_changed: { statuses: [409], when: "The customer's balance changed while the order was being completed.", action: RETRY_SHORTLY },
  conflict: {
    statuses: [422],
    when: 'The resource changed while this change was made (a user, a reward pause, a legacy card migration).',
    action: 'Read the resource again and retry.',
  },
  staff_changed: {
    statuses: [409],
    when: 'The staff member was changed or removed by another request while this change was made.',
    action: RETRY_SHORTLY,
  },
  location_changed: {
    statuses: [409],
    when: 'Another change of the location committed after this one read it (the management API; docs/merchant-api.md, "Locations").',
    action: 'Read the location again and send the change again: it was not applied.',
  },
  menu_draft_changed: {
    statuses: [409],
    when: 'The menu draft was saved, published or discarded after the `version` this request sent was read (the management API; docs/merchant-api.md, "Menus").',
    action: 'Read the draft again (GET .../menu_draft) and send the change again with its version: it was not applied.',
  },
  no_draft: {
    statuses: [422],
    when: 'A publish or discard of a location that has no menu draft (docs/merchant-api.md, "Menus").',
    action: 'Save a draft first (PUT .../menu_draft).',
  },
  campaign_changed: {
    statuses: [409],
    when: 'The campaign was changed by another request while this change was made.',
    action: RETRY_SHORTLY,
  },
  not_editable: {
    statuses: [422],
    when: "An edit of a campaign's economics (kind, requirements, amounts, item rules, goals, period, opt-in, lock, tags, code, claims, hours): users' progress and rewards were computed under them.",
    action: 'Leave the field out (or send it as it is); close the campaign and create a new one to change it.',
  },
  not_later: {
    statuses: [422],
    when: "An edit of a campaign's `closes_at` that is not later than its end, or gives an end to a campaign without one.",
    action: 'Close the campaign (POST .../close) to end it sooner.',
  },
  not_earlier: {
    statuses: [422],
    when: 'A close of a campaign at a time later than its end.',
    action: 'Edit the campaign (PUT) to extend it.',
  },
  campaign_closed: {
    statuses: [422],
    when: "An edit of a closed campaign's end: a closed campaign never reopens.",
    action: 'Create a new campaign.',
  },
  last_owner: {
    statuses: [422],
    when: 'A change that would leave the merchant without an owner: removing or demoting its last owner.',
    action: 'Make another staff member an owner first.',
  },
  in_use: { statuses: [422], when: 'The reward is being used by an order right now.', action: 'Try again in a moment.' },
  mismatch: {
    statuses: [422],
    when: 'An Idempotency-Key reused with a different request; or an email and a user id that name different users.',
    action: 'Use a new Idempotency-Key for a new request; send one identity, or two of the same user.',
  },
  other_caller: { statuses: [422], when: 'An Idempotency-Key already used by other credentials.', action: 'Use a new key for each customer and request.' },

  // Money (docs/money.md, docs/pos.md, docs/payments.md).
  insufficient_funds: {
    statuses: [422],
    when: 'The card has insufficient funds for the order (or the gift card order charge was refused for funds).',
    action: 'Allow partial authorization, or collect another tender.',
  },
  declined: { statuses: [422], when: "The customer's card was declined for a gift card order.", action: 'Ask the customer to use another card.' },
  no_payment_method: {
    statuses: [422],
    when: 'The customer has no payment method and the order needs one.',
    action: 'Allow partial authorization to apply loyalty only, or collect another tender.',
  },
  no_credit_card: {
    statuses: [404, 422],
    when: 'The user has no card to pay with: the payment token (404, the v14 body) or a gift card order (422).',
    action: 'Ask the user to add a credit card.',
  },
  requires_partial_authorization: {
    statuses: [422],
    when: 'A discount-only order without partial authorization.',
    action: 'Set `partial_authorization_allowed` and collect the rest by another tender.',
  },
  exceeds_spend: {
    statuses: [422],
    when: 'A discount larger than the spend, or a detached refund larger than what the customer ever spent at the merchant.',
    action: 'Lower the amount.',
  },
  exceeds_available: {
    statuses: [422],
    when: 'An applied discount larger than the merchant-funded credit available.',
    action: 'Apply at most the credit the message names.',
  },
  invalid_preferences: { statuses: [422], when: "The payment token's tip preferences are out of range.", action: 'Ask the user to fix the tip in the app.' },
  over_order_charge_limit: {
    statuses: [422],
    when: 'The charge is over the per-order card limit.',
    action: 'Charge less to the card; collect the rest by another tender.',
  },
  over_monthly_charge_limit: { statuses: [422], when: "The charge would pass the card's monthly limit.", action: 'Collect another tender.' },
  over_operation_cap: { statuses: [422], when: 'More credit than may be given in one operation.', action: 'Give at most the amount the message names.' },
  over_daily_credit_budget: {
    statuses: [422],
    when: "Past the merchant's daily budget of credit given by hand.",
    action: 'Try again tomorrow, or ask support to raise the budget.',
  },
  too_many_grants: {
    statuses: [422],
    when: 'The customer already holds the most expiring grants from this merchant.',
    action: 'Wait until one expires or is used.',
  },
  not_supported: {
    statuses: [422],
    when: 'Global credit was asked for; credit is usable at the merchant that gives it only.',
    action: 'Grant credit at the merchant.',
  },
  too_many_held_gifts: {
    statuses: [422],
    when: 'The gift card recipient already has the most gifts waiting for them to sign up.',
    action: 'Wait until they sign up, or send to another email.',
  },
  export_too_large: {
    statuses: [422],
    when: 'A CSV export of the management API would hold more than its 10,000 rows (docs/merchant-api.md, "Reports and exports").',
    action: 'Export a shorter range (several exports cover a longer one).',
  },
  already_completed: {
    statuses: [422],
    when: 'The order or check was already completed (paid).',
    action: 'Do not charge again; publish a new check for a new sale.',
  },
  not_completable: {
    statuses: [422],
    when: 'The order cannot be completed in its state (an order ahead order still being checked or not valid).',
    action: 'Propose or start the order again.',
  },
  differs_from_proposal: {
    statuses: [422],
    when: 'A completion whose terms differ from the proposed order.',
    action: 'Complete with the proposal’s terms, or propose again.',
  },
  differs_from_completed: {
    statuses: [422],
    when: 'A repeat of a completed order with different terms; nothing was charged.',
    action: 'Propose a new order for a new check.',
  },
  immutable: { statuses: [422], when: "A published check's location cannot change.", action: 'Publish a new check.' },
  not_claimed: { statuses: [422], when: 'No customer has claimed the check yet.', action: 'Wait for the customer to scan it.' },
  not_adjustable: {
    statuses: [422],
    when: 'A progress adjustment of a campaign that is not item-, visit- or spend-based.',
    action: 'Adjust only those campaigns.',
  },
  not_pausable: { statuses: [422], when: 'A reward with no value left, or pre-loaded credit, cannot be paused.', action: 'Do not pause it.' },

  // Order ahead (docs/order-ahead.md): the validation and completion polls' 422, and the `order_ahead.invalidated` event.
  cart_invalid: { statuses: [422], when: 'A cart line is not orderable (unknown item, quantity, options).', action: START_AGAIN },
  unavailable: { statuses: [422], when: 'The desired ready time is not available.', action: 'Choose one of `available_at` and start again.' },
  location_closed: { statuses: [422], when: 'The location is closed right now.', action: START_AGAIN },
  fulfillment_unavailable: { statuses: [422], when: 'The location does not offer the fulfillment type.', action: START_AGAIN },
  outside_delivery_area: { statuses: [422], when: 'The delivery address is outside the delivery area.', action: START_AGAIN },
  not_locatable: { statuses: [422], when: 'The delivery address has no map position.', action: 'Add latitude and longitude to the address, then start again.' },
  special_instructions_not_allowed: { statuses: [422], when: 'The location or item does not accept special instructions.', action: START_AGAIN },
  tips_not_accepted: { statuses: [422], when: 'The location does not accept tips on this kind of order.', action: START_AGAIN },
  validation_failed: { statuses: [422], when: 'The order could not be checked with the restaurant.', action: 'Start the order again.' },
  validation_unavailable: { statuses: [503], when: 'Orders cannot be checked right now.', action: 'Retry after `Retry-After`.' },
  rejected: { statuses: [422], when: 'The order was rejected and cannot be completed.', action: START_AGAIN },
  provider_rejected: { statuses: [422], when: 'The restaurant rejected the order; nothing was charged.', action: START_AGAIN },
  provider_timeout: { statuses: [422], when: 'The restaurant did not confirm in time; nothing was charged.', action: 'Start the order again.' },
  completion_failed: { statuses: [422], when: 'The order could not be completed; nothing was charged.', action: 'Start the order again.' },
  completion_unavailable: { statuses: [503], when: 'Orders cannot be completed right now; nothing was charged.', action: 'Retry after `Retry-After`.' },

  // Identity and loyalty.
  manager_confirmation_locked: {
    statuses: [429],
    when: 'Too many incorrect manager confirmations at this location.',
    action: 'Wait for `Retry-After`; check the manager code.',
  },
  manager_code_required: {
    statuses: [422],
    when: "A management refund at a merchant that requires a manager code, sent without the signed-in owner's or manager's own code.",
    action: 'Ask the person for their own manager code and send it as `manager_confirmation`.',
  },
  manager_code_not_set: {
    statuses: [422],
    when: 'A management refund at a merchant that requires a manager code, by an owner or manager who has not set their own code.',
    action: 'Set one (`PUT /v15/merchants/{merchant_id}/staff/me/manager_code`), then refund.',
  },
  manager_code_incorrect: {
    statuses: [422],
    when: "A management refund whose `manager_confirmation` is not the signed-in person's own code (another's or the shared code included).",
    action: 'Ask for their own code; wrong codes count toward `manager_confirmation_locked`.',
  },
  gone: {
    statuses: [410],
    when: 'The operation no longer exists (Facebook login).',
    action: 'Do what the message says instead (sign in with email and password).',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES).sort() as ErrorCode[];

/** docs/errors.md: the catalogue as a page (`npm run openapi` writes it; a test keeps the committed one current). */
export function errorCodesMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = ERROR_CODE_NAMES.map((code) => {
    const entry: ErrorCodeEntry = ERROR_CODES[code];
    return `| \`${code}\` | ${entry.statuses.join(', ')} | ${cell(entry.when)} | ${cell(entry.action)} |`;
  });
  return [
    '# Error codes',
    '',
    '<!-- Generated from shared/http/error-codes.ts by `npm run openapi`; edit that file, not this one. -->',
    '',
    'Every error the API answers is the contract\'s error array, `[{"error": {"object", "property", "message", "code"}}]`.',
    '`object` and `property` say what the error is about, `message` is for people, and `code` is for programs: one of',
    'the codes below. The OpenAPI document lists the same codes (`ErrorDetail.code`, and `x-error-codes` at its root).',
    "A 404 without a body (the contract's not-found answers) has no code; a 409, 429 or 503 carries `Retry-After`.",
    '',
    '| Code | Status | When | What to do |',
    '| ---- | ------ | ---- | ---------- |',
    ...rows,
    '',
  ].join('\n');
}
