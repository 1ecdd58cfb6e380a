/**
 * Key builders for every entity of the single table, and the ONLY place key prefixes are written.
 * Entity prefixes keep kinds apart (`USER#`, `TOKEN#`, ...); numeric parts of sort keys are zero-padded
 * so they sort as numbers. An item's builder names the whole key; a partition builder (`userOrders`,
 * `merchantLocations`, ...) names what a Query reads: the partition and the prefix of its sort keys.
 * docs/data-model.md lists each access pattern that uses them.
 */

export interface Key {
  pk: string;
  sk: string;
}

/** Zero-pads a non-negative integer id so lexical order equals numeric order. */
export function padId(id: number): string {
  return String(id).padStart(12, '0');
}

/** Sort key prefixes shared by an item's builder and the partition builder that queries it. */
const LOCATION_SORT = 'LOCATION#';
const ORDER_SORT = 'ORDER#';
const CAMPAIGN_SORT = 'CAMPAIGN#';
const TICKET_SORT = 'TICKET#';
const TICKETS_PARTITION = 'TICKETS';
const WEBHOOK_SORT = 'WEBHOOK#';
const EVENT_PREFIX = 'EVENT#';
const EVENT_SEQUENCE_PREFIX = 'EVENTSEQ#';
/** Every audit log partition starts so (append-only: no code path updates or deletes an item of it). */
const AUDIT_PREFIX = 'AUDIT#';
const AUDIT_ENTRY_SORT = 'ENTRY#';
/** Every mail item's partition starts so (the stream function may update those only: infra/constructs/webhook-delivery.ts). */
export const MAIL_PREFIX = 'MAIL#';
/** Every password-reset secret's partition starts so (the stream function may create those: it composes reset mails). */
export const PASSWORD_RESET_PREFIX = 'PWRESET#';
/** Partitions of push devices and of sent-notification markers (the stream function's IAM conditions name them). */
export const PUSH_DEVICE_PREFIX = 'PUSHDEVICE#';
export const PUSH_SENT_PREFIX = 'PUSHSENT#';
/** A merchant's report aggregates and the markers of counted records (the stream function writes those: shared/domain/reports). */
export const REPORTS_PREFIX = 'REPORTS#';
export const REPORT_COUNTED_PREFIX = 'REPORTCOUNTED#';
/** Every event id starts so (docs/events.md): ids sort by the time they were made. */
export const EVENT_ID_PREFIX = 'evt_';
/** How many gsi1 partitions an audience's events are spread over (docs/scale.md, "An audience's events index"). */
export const EVENT_INDEX_SHARDS = 8;

const USER_SORT = 'USER';
const USER_TOTALS_SORT = 'USER#TOTALS';
const locationSortKey = (locationId: number) => `${LOCATION_SORT}${padId(locationId)}`;
const LOCATION_CHANGES = 'LOCATION_CHANGES';
const locationChangeSortKey = (updatedAt: string, locationId: number) => `${updatedAt}#${padId(locationId)}`;
const merchantLocationsPartition = (merchantId: number) => `MERCHANT#${merchantId}#LOCATIONS`;
const merchantCampaignsPartition = (merchantId: number) => `MERCHANT#${merchantId}#CAMPAIGNS`;
const STAFF_SORT = 'STAFF#';
const merchantStaffPartition = (merchantId: number) => `MERCHANT#${merchantId}#STAFF`;
const userOrdersPartition = (userId: number) => `USER#${userId}#ORDERS`;
const locationOrdersPartition = (locationId: number) => `LOCATION#${locationId}#ORDERS`;

export const keys = {
  /** An id counter (shared/db/ids.ts): `COUNTER#<kind>` for a single-counter kind, `COUNTER#<kind>#<shard>` for one shard of a sharded kind. */
  counter: (entity: string, shard?: number): Key => ({ pk: shard === undefined ? `COUNTER#${entity}` : `COUNTER#${entity}#${shard}`, sk: 'COUNTER' }),

  app: (appId: number): Key => ({ pk: `APP#${appId}`, sk: 'APP' }),
  apiKey: (apiKeyHash: string): Key => ({ pk: `APIKEY#${apiKeyHash}`, sk: 'APIKEY' }),

  token: (tokenHash: string): Key => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  /** The digest a token item's key holds (the inverse of `token`). */
  tokenHashOf: (item: { pk?: unknown }): string => (typeof item.pk === 'string' ? item.pk : '').slice('TOKEN#'.length),
  /** gsi1 of a token: an account's tokens (revoked together on a password change). */
  accountTokensIndex: (subject: string, accountId: number, createdAt: string, tokenHash: string) => ({
    gsi1pk: `TOKENS#${subject}#${accountId}`,
    gsi1sk: `TOKEN#${createdAt}#${tokenHash}`,
  }),
  accountTokensPartition: (subject: string, accountId: number): string => `TOKENS#${subject}#${accountId}`,
  /** A fixed-window counter (failed logins per account or per client, card vaulting per user); `scope` names the limit and its subject. */
  rateWindow: (scope: string): Key => ({ pk: `RATE#${scope}`, sk: 'RATE' }),
  /** A password-reset link's secret (SHA-256): single use, expires (ttl). */
  passwordReset: (secretHash: string): Key => ({ pk: `${PASSWORD_RESET_PREFIX}${secretHash}`, sk: 'PWRESET' }),
  /** A permissions request by id (asked by an app of a user). */
  permissionsRequest: (requestId: number): Key => ({ pk: `PERMREQ#${requestId}`, sk: 'PERMREQ' }),
  /**
   * The one pending permissions request to an email, lower-cased (points at it by id). Keyed by the email, not the
   * user, so asking writes the same items whether or not a user has it (docs/security.md, "No registration oracle").
   */
  emailPendingPermissionsRequest: (email: string): Key => ({ pk: `PERMREQ#PENDING#${email.trim().toLowerCase()}`, sk: 'PERMREQ#PENDING' }),
  /** Username (user email or merchant login), lower-cased: holds the password hash and the subject. */
  login: (username: string): Key => ({ pk: `LOGIN#${username.trim().toLowerCase()}`, sk: 'LOGIN' }),

  user: (userId: number): Key => ({ pk: `USER#${userId}`, sk: USER_SORT }),
  /**
   * A user's platform-wide totals (the User resource's orders_count, merchants_visited_count,
   * total_savings_amount; shared/domain/identity/user-totals.ts), apart from the profile item so order transactions
   * never conflict with profile updates. Its sort key sorts right after the profile's.
   */
  userTotals: (userId: number): Key => ({ pk: `USER#${userId}`, sk: USER_TOTALS_SORT }),
  /** The profile and the totals: one Query, sk BETWEEN the two (no other sort key of the partition falls between them). */
  userWithTotals: (userId: number) => ({ pk: `USER#${userId}`, skFrom: USER_SORT, skTo: USER_TOTALS_SORT }),
  userAddress: (userId: number, addressId: number): Key => ({ pk: `USER#${userId}`, sk: `ADDRESS#${padId(addressId)}` }),
  userAddressPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'ADDRESS#' }),
  /** How many addresses a user has, kept beside them so the per-user limit holds under concurrent creates. */
  userAddressCount: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'ADDRESSCOUNT' }),
  /**
   * A user's phone in its normalised (E.164) form, one item per (phone, user): two users may share a number, so the
   * partition is the phone's and each user has a sort key in it (shared/domain/identity/phones.ts).
   */
  userPhone: (phone: string, userId: number): Key => ({ pk: `PHONE#${phone}`, sk: `USER#${padId(userId)}` }),
  /** The partition of one normalised phone: its users by id. */
  phoneUsers: (phone: string) => ({ pk: `PHONE#${phone}`, skPrefix: 'USER#' }),
  creditCard: (userId: number, cardId: number): Key => ({ pk: `USER#${userId}`, sk: `CARD#${padId(cardId)}` }),
  creditCardPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'CARD#' }),
  /** One card (by gateway fingerprint) belongs to one user. */
  cardFingerprint: (fingerprint: string): Key => ({ pk: `CARDFP#${fingerprint}`, sk: 'CARDFP' }),
  /** The QR code data a POS scans, pointing at its user. */
  paymentToken: (data: string): Key => ({ pk: `QR#${data}`, sk: 'QR' }),

  merchant: (merchantId: number): Key => ({ pk: `MERCHANT#${merchantId}`, sk: 'MERCHANT' }),
  location: (locationId: number): Key => ({ pk: `LOCATION#${locationId}`, sk: 'LOCATION' }),
  /** gsi1 of a location: a merchant's locations by id. */
  merchantLocationsIndex: (merchantId: number, locationId: number) => ({ gsi1pk: merchantLocationsPartition(merchantId), gsi1sk: locationSortKey(locationId) }),
  /** gsi2 of a location: every location by id (what a global app lists). */
  allLocationsIndex: (locationId: number) => ({ gsi2pk: 'LOCATIONS', gsi2sk: locationSortKey(locationId) }),
  /** The gsi1 partition of one merchant's locations. */
  merchantLocations: (merchantId: number) => ({ gsi1pk: merchantLocationsPartition(merchantId), skPrefix: LOCATION_SORT }),
  /** The gsi2 partition of every location. */
  allLocations: () => ({ gsi2pk: 'LOCATIONS', skPrefix: LOCATION_SORT }),
  /** The index sort key of a location (both location indexes): a page resumes after it. */
  locationSortKey,
  /**
   * A location's row in the change feed (A28, GET /v14/locations): every location by (updated_at, id), so a
   * page after a position is one bounded range read. updated_at is always UTC `+00:00` and sorts as text.
   */
  locationChange: (updatedAt: string, locationId: number): Key => ({ pk: LOCATION_CHANGES, sk: locationChangeSortKey(updatedAt, locationId) }),
  /** The change feed's partition and the sort key of a position in it (a page starts after it). */
  locationChanges: () => ({ pk: LOCATION_CHANGES }),
  locationChangeSortKey,

  // Demo (locations area): marks a local table as seeded by scripts/demo/seed.ts; holds ids only, no secrets.
  demoSeed: (): Key => ({ pk: 'DEMO', sk: 'DEMO' }),
  /** The item bench/harness/baseline-handler.ts reads: the floor of a handler that does one GetItem. */
  benchBaseline: (): Key => ({ pk: 'BENCH#BASELINE', sk: 'BENCH#BASELINE' }),
  /** An item of a bench read floor (bench/floors/floor.ts): a partition per run and read shape, `index` its place in it. */
  benchFloorRead: (partition: string, index: number): Key => ({ pk: `BENCH#FLOOR#${partition}`, sk: `BENCH#ITEM#${String(index).padStart(4, '0')}` }),

  // Money (gift cards, orders, ledger, idempotency) — see docs/data-model.md "Money"
  /** A balance (gift card value, merchant-funded credit, card charges) of one account, e.g. `giftcard:5:1`. */
  balance: (account: string): Key => ({ pk: `BALANCE#${account}`, sk: 'BALANCE' }),
  /** One immutable ledger entry; its id is the movement's natural id, so a movement is written once. */
  ledgerEntry: (account: string, entryId: string): Key => ({ pk: `LEDGER#${account}`, sk: `ENTRY#${entryId}` }),
  ledgerEntryPrefix: (account: string) => ({ pk: `LEDGER#${account}`, skPrefix: 'ENTRY#' }),
  giftCardAddition: (uuid: string): Key => ({ pk: `GCADDITION#${uuid}`, sk: 'GCADDITION' }),
  /** A gift card value order: a user bought gift card value at a merchant for someone (by email). */
  giftCardValueOrder: (uuid: string): Key => ({ pk: `GCORDER#${uuid}`, sk: 'GCORDER' }),
  /** gsi1 of a gift card value order: its buyer's orders by creation time (query backwards for newest first). */
  buyerGiftCardOrdersIndex: (buyerUserId: number, createdAt: string, uuid: string) => ({
    gsi1pk: `GCORDERS#${buyerUserId}`,
    gsi1sk: `GCORDER#${createdAt}#${uuid}`,
  }),
  buyerGiftCardOrders: (buyerUserId: number) => ({ gsi1pk: `GCORDERS#${buyerUserId}`, skPrefix: 'GCORDER#' }),
  /** The gift card value orders held for an email that has no account yet (`emailKey`: the email's hash; held-gifts.ts). */
  heldGifts: (emailKey: string): Key => ({ pk: `HELDGIFTS#${emailKey}`, sk: 'HELDGIFTS' }),
  /** external_identifier of a gift card addition, scoped to the merchant: at most one addition each. */
  giftCardExternalIdentifier: (merchantId: number, externalIdentifier: string): Key => ({ pk: `GCEXTID#${merchantId}#${externalIdentifier}`, sk: 'GCEXTID' }),
  proposedOrder: (uuid: string): Key => ({ pk: `PROPOSED#${uuid}`, sk: 'PROPOSED' }),
  /** The lease one settlement holds on a customer at a merchant: their orders there settle one at a time. */
  customerSettlement: (userId: number, merchantId: number): Key => ({ pk: `SETTLING#${userId}#${merchantId}`, sk: 'SETTLING' }),
  /** What a user's card was charged in one calendar month (UTC, `YYYY-MM`), everywhere: the monthly charge limit's counter. */
  userChargeMonth: (userId: number, month: string): Key => ({ pk: `CHARGES#${userId}`, sk: `MONTH#${month}` }),
  /** What a user's card was charged in one calendar month at one merchant: that merchant's monthly charge limit's counter. */
  merchantChargeMonth: (userId: number, merchantId: number, month: string): Key => ({
    pk: `CHARGES#${userId}`,
    sk: `MONTH#${month}#MERCHANT#${padId(merchantId)}`,
  }),
  /** Merchant-funded credit a merchant gave by hand on one UTC day (`YYYY-MM-DD`): its daily budget's counter (merchant-budget.ts). */
  merchantCreditDay: (merchantId: number, day: string): Key => ({ pk: `FUNDED#${merchantId}`, sk: `DAY#${day}` }),
  order: (uuid: string): Key => ({ pk: `ORDER#${uuid}`, sk: 'ORDER' }),
  /** gsi1 of an order: a user's orders by creation time (ISO 8601 with milliseconds); query backwards for newest first. */
  userOrdersIndex: (userId: number, createdAt: string, uuid: string) => ({ gsi1pk: userOrdersPartition(userId), gsi1sk: `${ORDER_SORT}${createdAt}#${uuid}` }),
  /** The gsi1 partition of a user's orders. */
  userOrders: (userId: number) => ({ gsi1pk: userOrdersPartition(userId), skPrefix: ORDER_SORT }),
  /** gsi2 of an order: its location's orders by creation time (same sort key as the user's index); what a POS pages through. */
  locationOrdersIndex: (locationId: number, createdAt: string, uuid: string) => ({
    gsi2pk: locationOrdersPartition(locationId),
    gsi2sk: `${ORDER_SORT}${createdAt}#${uuid}`,
  }),
  /** The gsi2 partition of a location's orders. */
  locationOrders: (locationId: number) => ({ gsi2pk: locationOrdersPartition(locationId), skPrefix: ORDER_SORT }),
  /** The location's orders made on one UTC day (`YYYY-MM-DD`): the same partition, the day's prefix of its sort keys. */
  locationOrdersOnDay: (locationId: number, day: string) => ({ gsi2pk: locationOrdersPartition(locationId), skPrefix: `${ORDER_SORT}${day}` }),
  /** The order's uuid in an orders index sort key (`ORDER#<created_at>#<uuid>`). */
  orderUuidOfSortKey: (sortKey: string): string => sortKey.slice(sortKey.lastIndexOf('#') + 1),
  /** Whether a value (a paging cursor) can be the index sort key of an order (either order index). */
  isUserOrdersSortKey: (value: string): boolean => value.startsWith(ORDER_SORT),
  /** The open expiring merchant-funded credit grants of a user at a merchant (shared/domain/money/credit.ts). */
  creditGrants: (userId: number, merchantId: number): Key => ({ pk: `USER#${userId}`, sk: `CREDITGRANTS#${padId(merchantId)}` }),
  /** A merchant-funded credit grant (POST /v15/merchant_funded_credits). */
  creditGrant: (uuid: string): Key => ({ pk: `MFCREDIT#${uuid}`, sk: 'MFCREDIT' }),
  /** A gift card value removal; the removal reversing an addition is keyed by the addition, so there is one at most. */
  giftCardRemoval: (uuid: string): Key => ({ pk: `GCREMOVAL#${uuid}`, sk: 'GCREMOVAL' }),
  giftCardAdditionReversal: (additionUuid: string): Key => ({ pk: `GCADDITION#${additionUuid}`, sk: 'REVERSAL' }),
  /** A detached refund (credit not tied to an order). */
  detachedRefund: (uuid: string): Key => ({ pk: `DETACHEDREFUND#${uuid}`, sk: 'DETACHEDREFUND' }),
  /** identifier_from_merchant of a detached refund, scoped to the merchant: a repeat answers the first refund. */
  detachedRefundIdentifier: (merchantId: number, identifier: string): Key => ({ pk: `DETACHEDREFUNDID#${merchantId}#${identifier}`, sk: 'DETACHEDREFUNDID' }),
  /** A progress adjustment by a merchant. */
  progressAdjustment: (uuid: string): Key => ({ pk: `PROGRESSADJ#${uuid}`, sk: 'PROGRESSADJ' }),
  /** Idempotency-Key record; `keyHash` is the SHA-256 of the client's key, `scope` the token subject. */
  idempotencyKey: (scope: string, keyHash: string): Key => ({ pk: `IDEMPOTENCY#${scope}#${keyHash}`, sk: 'IDEMPOTENCY' }),

  // Order ahead
  /** A location's order-ahead menu: one item holding categories, items, options, windows and upsells. */
  orderAheadMenu: (locationId: number): Key => ({ pk: `LOCATION#${locationId}`, sk: 'OAMENU' }),
  /** A location's order-ahead menu draft (the management API; apps never read it) and its version counter. */
  orderAheadMenuDraft: (locationId: number): Key => ({ pk: `LOCATION#${locationId}`, sk: 'OAMENU_DRAFT' }),
  /** gsi1 of a menu: the menu by its own id (menu_url, GET /v15/order_ahead/menus/:menu_id). */
  menuIdIndex: (menuId: number) => ({ gsi1pk: `OAMENU#${menuId}`, gsi1sk: 'OAMENU' }),
  /** A proposed order-ahead order by its uuid (the uuid is unguessable; ownership is checked on read). */
  orderAheadOrder: (uuid: string): Key => ({ pk: `OAORDER#${uuid}`, sk: 'OAORDER' }),
  /** The carts a user recently had completed (suggested orders, "past"): one bounded item. */
  userRecentCarts: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'OACARTS' }),
  /** The carts most often completed at a location (suggested orders, "popular"): one bounded item. */
  locationPopularCarts: (locationId: number): Key => ({ pk: `LOCATION#${locationId}`, sk: 'OAPOPULAR' }),

  // Point of sale (docs/pos.md)
  /** A charity a user may give to (GET /v14/contributions/targets/:id). */
  contributionTarget: (targetId: number): Key => ({ pk: `CONTRIBUTIONTARGET#${targetId}`, sk: 'CONTRIBUTIONTARGET' }),
  /** A remote check a POS published (its uuid is the QR code's secret; ttl ends an unpaid one). */
  check: (uuid: string): Key => ({ pk: `CHECK#${uuid}`, sk: 'CHECK' }),
  /** gsi2 of a contribution target: every target by id (GET /v14/contributions/targets). */
  contributionTargetsIndex: (targetId: number) => ({ gsi2pk: 'CONTRIBUTIONTARGETS', gsi2sk: `TARGET#${padId(targetId)}` }),
  /** The gsi2 partition of every contribution target. */
  contributionTargets: () => ({ gsi2pk: 'CONTRIBUTIONTARGETS', skPrefix: 'TARGET#' }),

  // Loyalty (campaigns, progress, claims, unlocks, rewards) — see docs/data-model.md "Loyalty"
  campaign: (campaignId: number): Key => ({ pk: `CAMPAIGN#${campaignId}`, sk: 'CAMPAIGN' }),
  /** gsi1 of a campaign: a merchant's campaigns by id. */
  merchantCampaignsIndex: (merchantId: number, campaignId: number) => ({
    gsi1pk: merchantCampaignsPartition(merchantId),
    gsi1sk: `${CAMPAIGN_SORT}${padId(campaignId)}`,
  }),
  /** gsi1 of a merchant: listed in its own campaigns partition, so one Query answers "exists?" and "which campaigns?" (rewards list). */
  merchantCatalogEntry: (merchantId: number) => ({ gsi1pk: merchantCampaignsPartition(merchantId), gsi1sk: 'MERCHANT' }),
  /** The gsi1 partition of a merchant's catalog: its campaigns (sort keys under `skPrefix`) and the merchant. */
  merchantCampaigns: (merchantId: number) => ({ gsi1pk: merchantCampaignsPartition(merchantId), skPrefix: CAMPAIGN_SORT }),
  /** Whether a value (a paging cursor) can be a campaign's gsi1 sort key in its merchant's catalog. */
  isCampaignSortKey: (value: string): boolean => /^CAMPAIGN#\d{12}$/.test(value),
  /** How many campaigns a merchant has made: the guard of the campaign limit (loyalty/campaigns.ts). */
  merchantCampaignCount: (merchantId: number): Key => ({ pk: merchantCampaignsPartition(merchantId), sk: 'COUNT' }),
  /** A cohort code (upper-cased) names one campaign; the item makes codes unique. */
  cohortCode: (code: string): Key => ({ pk: `COHORT#${code.trim().toUpperCase()}`, sk: 'COHORT' }),
  /** The legacy loyalty campaign an app migrates cards into (one per app). */
  appLegacyCampaign: (appId: number): Key => ({ pk: `APP#${appId}`, sk: 'LEGACYCAMPAIGN' }),
  legacyCard: (campaignId: number, legacyId: string): Key => ({ pk: `LEGACYCARD#${campaignId}#${legacyId}`, sk: 'LEGACYCARD' }),
  /** Everything a user holds at one merchant's loyalty shares this prefix: one Query reads it all. */
  userLoyaltyPrefix: (userId: number, merchantId: number) => ({ pk: `USER#${userId}`, skPrefix: `LOYALTY#${padId(merchantId)}#` }),
  userProgress: (userId: number, merchantId: number, campaignId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `LOYALTY#${padId(merchantId)}#PROGRESS#${padId(campaignId)}`,
  }),
  userUnlock: (userId: number, merchantId: number, campaignId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `LOYALTY#${padId(merchantId)}#UNLOCK#${padId(campaignId)}`,
  }),
  /** One per user and campaign: the guard that makes a claim once-only, and the user's opt-in. */
  userCampaignClaimed: (userId: number, merchantId: number, campaignId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `LOYALTY#${padId(merchantId)}#CLAIMED#${padId(campaignId)}`,
  }),
  /** A reward the user holds: `claim-<id>` (from a claim) or `earned-<id>` (earned by progress). */
  userReward: (userId: number, merchantId: number, rewardId: string): Key => ({ pk: `USER#${userId}`, sk: `LOYALTY#${padId(merchantId)}#REWARD#${rewardId}` }),
  /** A user's running totals at one merchant (orders, volume, savings): written by each completion and refund. */
  userLoyaltyStats: (userId: number, merchantId: number): Key => ({ pk: `USER#${userId}`, sk: `LOYALTY#${padId(merchantId)}#STATS` }),
  /** gsi1 of a held reward: find it by its public id (pause/unpause carry no merchant id). */
  rewardIdIndex: (rewardId: string) => ({ gsi1pk: `REWARD#${rewardId}`, gsi1sk: 'REWARD' }),
  /** What loyalty did in one order's completion, so a refund can undo exactly that. */
  orderLoyaltyEffects: (orderUuid: string): Key => ({ pk: `LOYALTYORDER#${orderUuid}`, sk: 'EFFECTS' }),

  // App surface (interstitials, feedback, support tickets, images) — see docs/data-model.md "App surface"
  // Staff (docs/merchant-api.md, docs/data-model.md "Staff"): a merchant's staff members and their roster, one partition per merchant.
  /** A staff member of a merchant (their login is the email's `login` item, pointing back by staff_id). */
  staffMember: (merchantId: number, staffId: number): Key => ({ pk: merchantStaffPartition(merchantId), sk: `${STAFF_SORT}${padId(staffId)}` }),
  /** A merchant's staff counts (members, owners): the guards of the staff limit and of the last owner. */
  staffRoster: (merchantId: number): Key => ({ pk: merchantStaffPartition(merchantId), sk: 'ROSTER' }),
  /** The partition of a merchant's staff members (a Query by sort-key prefix lists them by id; the roster sorts apart). */
  merchantStaff: (merchantId: number) => ({ pk: merchantStaffPartition(merchantId), skPrefix: STAFF_SORT }),
  /** Whether a value (a paging cursor) can be a staff member's sort key. */
  isStaffSortKey: (value: string): boolean => /^STAFF#\d{12}$/.test(value),

  /** The screen a merchant shows after an order (A6): one per merchant. */
  merchantInterstitial: (merchantId: number): Key => ({ pk: `MERCHANT#${merchantId}`, sk: 'INTERSTITIAL' }),
  /** A user's answer to a feedback interstitial (A7): one per order, the latest answer kept. */
  orderFeedback: (orderUuid: string): Key => ({ pk: `FEEDBACK#${orderUuid}`, sk: 'FEEDBACK' }),
  ticket: (ticketId: number): Key => ({ pk: `TICKET#${ticketId}`, sk: 'TICKET' }),
  /** gsi1 of a ticket: every ticket by creation time (what the operators' CLI lists, newest first). */
  ticketsIndex: (createdAt: string, ticketId: number) => ({ gsi1pk: TICKETS_PARTITION, gsi1sk: `${TICKET_SORT}${createdAt}#${padId(ticketId)}` }),
  tickets: () => ({ gsi1pk: TICKETS_PARTITION, skPrefix: TICKET_SORT }),
  /** The stored image of one subject (`location#5`, `campaign-image#3`, `campaign-icon#3`, `menu-item#2#41`): its variants. */
  image: (subject: string): Key => ({ pk: `IMAGE#${subject}`, sk: 'IMAGE' }),
  /** A merchant's presigned upload of a location's picture, by its id (a UUID): pending until processed, then ready or failed. */
  imageUpload: (uploadId: string): Key => ({ pk: `IMAGEUPLOAD#${uploadId}`, sk: 'IMAGEUPLOAD' }),
  // Push notifications — see docs/app-surface.md "Push notifications"
  /** A registered device (I17): one per app and device token, whoever registered it last. */
  pushDevice: (appId: number, token: string): Key => ({ pk: `${PUSH_DEVICE_PREFIX}${appId}#${token}`, sk: 'PUSHDEVICE' }),
  /** gsi1 of a device: its user's devices, oldest registration first (the cap evicts from the front). */
  userPushDevicesIndex: (userId: number, registeredAt: string, appId: number, token: string) => ({
    gsi1pk: `USER#${userId}#PUSHDEVICES`,
    gsi1sk: `PUSHDEVICE#${registeredAt}#${appId}#${token}`,
  }),
  userPushDevices: (userId: number) => ({ gsi1pk: `USER#${userId}#PUSHDEVICES`, skPrefix: 'PUSHDEVICE#' }),
  /** One notification handed to the push sender, so a retried stream batch never notifies twice. */
  pushSent: (notificationId: string): Key => ({ pk: `${PUSH_SENT_PREFIX}${notificationId}`, sk: 'PUSHSENT' }),
  // Events and webhooks — see docs/events.md
  /** A resource's event counter: the last sequence number, raised by one (conditionally) by each event of it. */
  eventSequence: (resourceType: string, resourceId: string): Key => ({ pk: `${EVENT_SEQUENCE_PREFIX}${resourceType}#${resourceId}`, sk: 'EVENTSEQ' }),
  /** Whether a key is an event counter (a transaction cancelled only by one lost a race to another event of the resource). */
  isEventSequenceKey: (key: { pk?: unknown }): boolean => (typeof key.pk === 'string' ? key.pk : '').startsWith(EVENT_SEQUENCE_PREFIX),
  /** One event of the outbox, written in the transaction of its change. */
  event: (eventId: string): Key => ({ pk: `${EVENT_PREFIX}${eventId}`, sk: 'EVENT' }),
  /** Whether a stream record's key is an event's (what the delivery path reads from the table's stream). */
  isEventKey: (key: { pk?: unknown; sk?: unknown }): boolean => (typeof key.pk === 'string' ? key.pk : '').startsWith(EVENT_PREFIX) && key.sk === 'EVENT',
  /** One mail of the mail outbox (shared/db/mail-outbox.ts), written in the transaction of the change that owes it. */
  mail: (mailId: string): Key => ({ pk: `${MAIL_PREFIX}${mailId}`, sk: 'MAIL' }),
  /** Whether a stream record's key is a mail's (what the stream function sends). */
  isMailKey: (key: { pk?: unknown; sk?: unknown }): boolean => (typeof key.pk === 'string' ? key.pk : '').startsWith(MAIL_PREFIX) && key.sk === 'MAIL',
  /**
   * gsi1 of an event: one of the audience's EVENT_INDEX_SHARDS partitions (the resource's, so a resource's
   * events share one), by id (ids sort by time). docs/scale.md: one partition took ~500-1,000 events/s.
   */
  audienceEventsIndex: (audience: string, eventId: string, shard: number) => ({ gsi1pk: `EVENTS#${audience}#${shard}`, gsi1sk: eventId }),
  /** The gsi1 partitions of an audience's events: its shards, then the one partition events had before sharding. */
  audienceEventPartitions: (audience: string): string[] => [
    ...Array.from({ length: EVENT_INDEX_SHARDS }, (_, shard) => `EVENTS#${audience}#${shard}`),
    `EVENTS#${audience}`,
  ],
  // Audit log and manager codes (the management API) — see docs/merchant-api.md "Audit log", "Manager codes"
  /** One entry of a merchant's audit log: append-only; its id starts with its time, so the partition sorts by it. */
  auditEntry: (merchantId: number, entryId: string): Key => ({ pk: `${AUDIT_PREFIX}${merchantId}`, sk: `${AUDIT_ENTRY_SORT}${entryId}` }),
  /** The partition of a merchant's audit log and the prefix of its entries' sort keys. */
  auditLog: (merchantId: number) => ({ pk: `${AUDIT_PREFIX}${merchantId}`, skPrefix: AUDIT_ENTRY_SORT }),
  /** Whether a key is an audit entry's (nothing may update or delete one). */
  isAuditKey: (key: { pk?: unknown }): boolean => (typeof key.pk === 'string' ? key.pk : '').startsWith(AUDIT_PREFIX),
  /** A staff member's manager code at a merchant, by its keyed digest: one code, one staff member (the item makes codes unique). */
  managerCode: (merchantId: number, codeDigest: string): Key => ({ pk: `MGRCODE#${merchantId}#${codeDigest}`, sk: 'MGRCODE' }),
  /** Which code (by digest) a staff member holds, so setting a new one removes the old one. */
  staffManagerCode: (merchantId: number, staffId: number): Key => ({ pk: `MERCHANT#${merchantId}`, sk: `MGRCODE#STAFF#${padId(staffId)}` }),
  webhookEndpoint: (endpointId: string): Key => ({ pk: `WEBHOOK#${endpointId}`, sk: 'WEBHOOK' }),
  /** gsi1 of a webhook endpoint: an audience's endpoints. */
  audienceWebhookEndpointsIndex: (audience: string, endpointId: string) => ({ gsi1pk: `WEBHOOKS#${audience}`, gsi1sk: `${WEBHOOK_SORT}${endpointId}` }),
  audienceWebhookEndpoints: (audience: string) => ({ gsi1pk: `WEBHOOKS#${audience}`, skPrefix: WEBHOOK_SORT }),
  /** How many endpoints an audience has, so the limit holds under concurrent creates. */
  webhookEndpointCount: (audience: string): Key => ({ pk: `WEBHOOKS#${audience}`, sk: 'COUNT' }),
  /** One event's delivery to one endpoint: attempts, first attempt, outcome. */
  webhookDelivery: (endpointId: string, eventId: string): Key => ({ pk: `DELIVERY#${endpointId}`, sk: `${EVENT_PREFIX}${eventId}` }),
  /** An endpoint's deliveries (one Query, newest event first). */
  webhookDeliveries: (endpointId: string) => ({ pk: `DELIVERY#${endpointId}` }),
  /**
   * One day's report figures of a merchant at one location (`location` is the zero-padded id, `none` for movements
   * without one, `all` for the merchant's total): shared/domain/reports/aggregates.ts.
   */
  reportDay: (merchantId: number, date: string, location: string): Key => ({ pk: `${REPORTS_PREFIX}${merchantId}`, sk: `DAY#${date}#${location}` }),
  /** The sort key bounds of a merchant's day rows from `fromDate` to `toDate` (inclusive), for a Query BETWEEN. */
  reportDays: (merchantId: number, fromDate: string, toDate: string) => ({
    pk: `${REPORTS_PREFIX}${merchantId}`,
    from: `DAY#${fromDate}#`,
    to: `DAY#${toDate}#~`,
  }),
  /** One month's change of a merchant's gift card liability (the running liability as of a day adds the months before it). */
  reportMonth: (merchantId: number, month: string): Key => ({ pk: `${REPORTS_PREFIX}${merchantId}`, sk: `MONTH#${month}` }),
  /** The sort key bounds of a merchant's month rows before `month`. */
  reportMonthsBefore: (merchantId: number, month: string) => ({ pk: `${REPORTS_PREFIX}${merchantId}`, from: 'MONTH#', to: `MONTH#${month}` }),
  /** The marker of a stream record the reports counted (by the counted item's own key): a replay finds it and counts nothing. */
  reportCounted: (recordKey: Key): Key => ({ pk: `${REPORT_COUNTED_PREFIX}${recordKey.pk}#${recordKey.sk}`, sk: 'COUNTED' }),
  /** gsi1 of a user-side ledger entry: its merchant's entries of one month (UTC) by time (the ledger CSV export). */
  merchantLedgerIndex: (merchantId: number, createdAt: string, account: string, entryId: string) => ({
    gsi1pk: `MLEDGER#${merchantId}#${createdAt.slice(0, 7)}`,
    gsi1sk: `${createdAt}#${account}#${entryId}`,
  }),
  /** The gsi1 partition of a merchant's ledger entries of one month (`YYYY-MM`). */
  merchantLedgerMonth: (merchantId: number, month: string) => ({ gsi1pk: `MLEDGER#${merchantId}#${month}` }),
};
