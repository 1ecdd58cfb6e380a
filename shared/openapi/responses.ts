/**
 * What each operation answers, by handler and status: the zod schema of the JSON body, or null for an empty body.
 * Documentation only (no function validates its answers): shared/openapi/document.ts reads this table to write
 * docs/openapi.json, and the suite checks every answer against it (test/openapi/response-validator.ts). It lives
 * here, not in the handlers, so that a deployed function neither carries nor builds its response schemas at a
 * cold start (docs/benchmarks.md, "Issue 35"). test/openapi/document.test.ts fails when a route has no row.
 */
import * as z from '#shared/schemas/zod.ts';
import { auditEntryList, auditLogCsv } from '#shared/schemas/responses/audit.ts';
import { merchantCampaignList, merchantCampaignResponse } from '#shared/schemas/responses/campaigns.ts';
import { managedOrderList, managedOrderResponse } from '#shared/schemas/responses/orders-management.ts';
import { userAddressResponse } from '#shared/schemas/responses/addresses.ts';
import {
  campaignMerchantIds,
  campaignMetadataList,
  categoryList,
  interstitialResponse,
  legacyCampaignResponse,
  locationListV14,
  locationSummaryList,
  ticketResponse,
} from '#shared/schemas/responses/app-surface.ts';
import { creditCardResponse, paymentMethodResponse, paymentOptionsSummaryResponse } from '#shared/schemas/responses/credit-cards.ts';
import { apnDeviceResponse } from '#shared/schemas/responses/devices.ts';
import { apiErrors } from '#shared/schemas/responses/errors.ts';
import { eventList } from '#shared/schemas/responses/event-shapes.ts';
import { replayResponse, webhookDeliveryList, webhookEndpointList, webhookEndpointResponse } from '#shared/schemas/responses/events.ts';
import { deliveryLocationResponse, locationList } from '#shared/schemas/responses/locations.ts';
import {
  campaignResponse,
  claimResponse,
  merchantLoyaltyResponse,
  rewardList,
  rewardResponse,
  rewardSummaryResponse,
} from '#shared/schemas/responses/loyalty.ts';
import {
  completedOrderResponse,
  giftCardValueAdditionResponse,
  giftCardValueOrderList,
  giftCardValueOrderResponse,
  merchantOrderResponse,
  proposedOrderResponse,
  userOrderDetailResponse,
  userOrderList,
} from '#shared/schemas/responses/money.ts';
import {
  completedOrderAheadResponse,
  menuResponse,
  orderAheadOrderResponse,
  orderAheadStatusResponse,
  suggestedOrdersResponse,
  upsellSuggestionResponse,
} from '#shared/schemas/responses/order-ahead.ts';
import { permissionsRequestForApp, permissionsRequestForUser } from '#shared/schemas/responses/permissions-requests.ts';
import {
  detachedRefundResponse,
  giftCardCreditResponse,
  giftCardValueRemovalResponse,
  locationCreditResponse,
  merchantFundedCreditResponse,
  oneStepOrderResponse,
  qrCodeValidationResponse,
} from '#shared/schemas/responses/pos-money.ts';
import {
  checkOrderResponse,
  checkResponse,
  contributionTargetList,
  contributionTargetResponse,
  locationDetailsV14Response,
  locationDetailsV15List,
  locationDetailsV15Response,
  locationOrderList,
  managedLocationList,
  merchantLocationSummaryV14List,
  merchantOrderV14Response,
  merchantOrderV15Response,
  publishedCheckResponse,
} from '#shared/schemas/responses/pos.ts';
import {
  issuedAccessToken,
  paymentTokenResponse,
  paymentTokenShowResponse,
  qrCodeResponse,
  userResponse,
  userV14,
  userWithAccessToken,
} from '#shared/schemas/responses/users.ts';
import { csvExport, dailyReportResponse } from '#shared/schemas/responses/reports.ts';
import { staffMemberList, staffMemberResponse } from '#shared/schemas/responses/staff.ts';
import { menuInputSchema } from '#shared/domain/order-ahead/menu.ts';
import { integerId, timestamp } from '#shared/schemas/responses/common.ts';
import { resource } from '#shared/schemas/responses/registry.ts';
import { locationSettingsList, locationSettingsResponse } from '#shared/schemas/responses/location-settings.ts';
import { imageUploadCreatedResponse, imageUploadResponse } from '#shared/schemas/responses/location-images.ts';
import { customerCreditGrantResponse, customerResponse, customerUnlockResponse } from '#shared/schemas/responses/customers.ts';
import { webLinkList } from '#shared/schemas/responses/web-links.ts';

export type OperationResponses = Readonly<Record<number, z.ZodMiniType | null>>;

/** The OpenAPI document served at GET /openapi.json (its full schema is OpenAPI's own). */
const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  servers: z.array(z.object({ url: z.string() })),
  paths: z.record(z.string(), z.unknown()),
});

/** The image routes (shared/endpoints/images.ts) answer 302 to a signed URL of the variant. */
/** A location's menu draft (docs/merchant-api.md, "Menus"): its menu is the menu schema itself, as the save's body. */
const menuDraftResponse = resource('MenuDraft', 'menu_draft', {
  location_id: integerId,
  merchant_id: integerId,
  state: z
    .enum(['draft', 'published', 'empty'])
    .check(z.describe('draft: an unpublished draft (apps do not see it); published: no draft, `menu` is what apps read; empty: neither')),
  version: z.number().check(z.int(), z.describe('Send it back with a save, publish or discard; raised by each')),
  menu_id: z.nullable(integerId).check(z.describe('The published menu (kept by every publish); null before the first')),
  published_version: z.nullable(z.number().check(z.int())),
  published_at: z.nullable(timestamp),
  updated_at: z.nullable(timestamp),
  menu: z.nullable(menuInputSchema).check(z.describe('The draft, else the published menu, else null: the body of a save')),
});

const imageResponses = { 302: null } as const;

const registration = z.object({ registration: z.object({ app_name: z.string(), description: z.string(), facebook: z.boolean() }) });

export const RESPONSES: Readonly<Record<string, OperationResponses>> = {
  'access-tokens-create': { 200: issuedAccessToken, 429: apiErrors },
  'access-tokens-create-v14': { 200: issuedAccessToken, 429: apiErrors },
  'access-tokens-delete': { 204: null },
  'access-tokens-downgrade': { 200: issuedAccessToken },
  'apn-devices-create': { 200: apnDeviceResponse, 204: null },
  'apn-devices-delete': { 204: null },
  'apps-orders-list': { 200: userOrderList, 204: null },
  'apps-orders-list-v14': { 200: userOrderList, 204: null },
  'apps-users-create': { 200: userWithAccessToken },
  'audit-log-export': { 200: auditLogCsv },
  'audit-log-list': { 200: auditEntryList, 204: null },
  'campaign-unlockings-create': { 204: null, 409: apiErrors },
  'campaigns-icon-show': imageResponses,
  'campaigns-image-show': imageResponses,
  'campaigns-merchants-list': { 200: campaignMerchantIds },
  'campaigns-show': { 200: campaignResponse },
  'campaigns-show-v14': { 200: legacyCampaignResponse },
  'categories-list': { 200: categoryList },
  'checks-create': { 200: publishedCheckResponse },
  'checks-orders-create': { 200: checkOrderResponse, 409: apiErrors },
  'checks-show': { 200: checkResponse },
  'checks-update': { 200: publishedCheckResponse, 409: apiErrors },
  'code-claims-create': { 200: claimResponse, 422: apiErrors },
  'codes-campaign-show': { 200: legacyCampaignResponse },
  'completed-orders-create': { 200: completedOrderResponse, 409: apiErrors },
  'contribution-targets-list': { 200: contributionTargetList },
  'contribution-targets-show': { 200: contributionTargetResponse },
  'credit-cards-create': { 200: creditCardResponse, 409: apiErrors, 429: apiErrors },
  'credit-cards-delete': { 200: creditCardResponse, 409: apiErrors },
  'credit-cards-list': { 200: z.array(creditCardResponse) },
  'credit-cards-list-v14': { 200: z.array(creditCardResponse) },
  'credit-cards-promote': { 200: creditCardResponse, 409: apiErrors },
  'detached-refunds-create': { 200: detachedRefundResponse, 404: null, 409: apiErrors },
  'detached-refunds-create-v14': { 200: detachedRefundResponse, 404: null, 409: apiErrors },
  'docs-assets-show': {
    200: z.union([z.string().check(z.meta({ contentMediaType: 'text/javascript' })), z.string().check(z.meta({ contentMediaType: 'text/css' }))]),
  },
  'docs-show': { 200: z.string().check(z.meta({ contentMediaType: 'text/html' })) },
  'events-list': { 200: eventList, 204: null },
  'facebook-connection-create': { 410: apiErrors },
  'facebook-connection-delete': { 410: apiErrors },
  'gift-card-value-additions-create': { 200: giftCardValueAdditionResponse, 409: apiErrors },
  'gift-card-value-orders-create': { 200: giftCardValueOrderResponse, 409: apiErrors, 429: apiErrors },
  'gift-card-value-orders-list': { 200: giftCardValueOrderList, 204: null },
  'gift-card-value-removals-create': { 200: giftCardValueRemovalResponse, 409: apiErrors },
  'legacy-loyalty-claims-create': { 200: claimResponse },
  'location-orders-list': { 200: locationOrderList, 204: null },
  'location-reward-summary-show': { 200: rewardSummaryResponse },
  'location-rewards-list': { 200: rewardList },
  'location-rewards-update': { 200: rewardResponse },
  'customer-lookups-create': { 200: customerResponse, 409: apiErrors, 429: apiErrors },
  'customers-show': { 200: customerResponse, 409: apiErrors },
  'customer-credit-grants-create': { 200: customerCreditGrantResponse, 409: apiErrors },
  'customer-campaign-unlockings-create': { 200: customerUnlockResponse, 409: apiErrors },
  'location-image-uploads-create': { 201: imageUploadCreatedResponse },
  'location-image-uploads-show': { 200: imageUploadResponse },
  'location-settings-create': { 200: locationSettingsResponse, 409: apiErrors },
  'location-settings-list': { 200: locationSettingsList, 204: null },
  'location-settings-show': { 200: locationSettingsResponse },
  'location-settings-update': { 200: locationSettingsResponse, 409: apiErrors },
  'locations-campaigns-list': { 200: campaignMetadataList },
  'locations-credit-show': { 200: locationCreditResponse, 409: apiErrors },
  'locations-credit-show-v14': { 200: locationCreditResponse, 409: apiErrors },
  'locations-gift-card-credit-create': { 200: giftCardCreditResponse },
  'locations-image-show': imageResponses,
  'locations-image-show-v14': imageResponses,
  'locations-list': { 200: locationList, 204: null },
  'locations-list-v14': { 200: locationListV14, 204: null },
  'locations-merchant-funded-credit-query': { 200: merchantFundedCreditResponse, 409: apiErrors },
  'locations-merchant-funded-credit-query-v14': { 200: merchantFundedCreditResponse, 409: apiErrors },
  'locations-merchant-funded-credit-show': { 200: merchantFundedCreditResponse, 409: apiErrors },
  'locations-merchant-funded-credit-show-v14': { 200: merchantFundedCreditResponse, 409: apiErrors },
  'locations-show': { 200: locationDetailsV15Response },
  'locations-show-v14': { 200: locationDetailsV14Response },
  'locations-summaries-list': { 200: locationSummaryList, 204: null },
  'locations-web-links-list': { 200: webLinkList },
  'managed-locations-list': { 200: managedLocationList },
  'merchant-exports-ledger-show': { 200: csvExport, 422: apiErrors },
  'merchant-exports-orders-show': { 200: csvExport, 422: apiErrors },
  'menu-drafts-show': { 200: menuDraftResponse },
  'menu-drafts-update': { 200: menuDraftResponse, 409: apiErrors },
  'menu-drafts-publish': { 200: menuDraftResponse, 409: apiErrors },
  'menu-drafts-discard': { 200: menuDraftResponse, 409: apiErrors },
  'managed-campaigns-close': { 200: merchantCampaignResponse, 409: apiErrors },
  'managed-campaigns-create': { 200: merchantCampaignResponse, 409: apiErrors },
  'managed-campaigns-list': { 200: merchantCampaignList, 204: null },
  'managed-campaigns-show': { 200: merchantCampaignResponse },
  'managed-orders-list': { 200: managedOrderList, 204: null },
  'managed-orders-show': { 200: managedOrderResponse },
  'managed-orders-refund': { 200: managedOrderResponse, 409: apiErrors },
  'managed-detached-refunds-create': { 200: detachedRefundResponse, 409: apiErrors },
  'managed-campaigns-update': { 200: merchantCampaignResponse, 409: apiErrors },
  'manager-code-update': { 204: null, 409: apiErrors },
  'merchant-funded-credits-create': { 204: null, 409: apiErrors },
  'merchant-locations-list': { 200: locationDetailsV15List, 204: null },
  'merchant-locations-list-v14': { 200: merchantLocationSummaryV14List },
  'merchant-loyalty-show': { 200: merchantLoyaltyResponse },
  'merchant-loyalty-show-v14': { 200: merchantLoyaltyResponse },
  'merchant-orders-show': { 200: merchantOrderV15Response },
  'merchant-orders-show-v14': { 200: merchantOrderV14Response },
  'merchant-reports-daily-show': { 200: dailyReportResponse, 403: apiErrors },
  'merchant-rewards-list': { 200: rewardList },
  'merchant-rewards-update': { 200: rewardResponse },
  'merchants-campaigns-list': { 200: campaignMetadataList },
  'openapi-show': { 200: openApiDocument },
  'order-ahead-completions-show': { 200: completedOrderAheadResponse, 202: orderAheadStatusResponse, 422: apiErrors },
  'order-ahead-menu-item-image-show': imageResponses,
  'order-ahead-menus-show': { 200: menuResponse },
  'order-ahead-menus-show-by-id': { 200: menuResponse },
  'order-ahead-orders-complete': { 202: orderAheadStatusResponse, 422: apiErrors, 503: apiErrors },
  'order-ahead-orders-create': { 200: orderAheadStatusResponse },
  'order-ahead-orders-show': { 200: orderAheadOrderResponse, 202: null, 422: apiErrors },
  'order-ahead-suggested-orders-list': { 200: suggestedOrdersResponse },
  'orders-create': { 200: oneStepOrderResponse, 409: apiErrors },
  'orders-create-v14': { 200: oneStepOrderResponse, 409: apiErrors },
  'orders-feedback-create': { 200: null },
  'orders-interstitial-show': { 200: interstitialResponse },
  'orders-interstitial-show-v14': { 200: interstitialResponse },
  'orders-refund': { 200: merchantOrderResponse, 409: apiErrors },
  'orders-refund-v15': { 200: merchantOrderResponse, 409: apiErrors },
  'orders-show': { 200: userOrderDetailResponse },
  'password-reset-page': { 200: z.string().check(z.meta({ contentMediaType: 'text/html' })) },
  'password-resets-create': { 204: null },
  'passwords-create': { 204: null, 429: apiErrors },
  'payment-method-delete': { 200: null, 404: null },
  'payment-method-show': { 200: paymentMethodResponse, 404: null },
  'payment-options-summary-show': { 200: paymentOptionsSummaryResponse },
  'payment-preference-update': { 200: null },
  'payment-token-rotations-create': { 200: paymentTokenResponse },
  'payment-token-show': { 200: paymentTokenShowResponse },
  'payment-token-show-v14': { 200: paymentTokenShowResponse },
  'permissions-requests-answer': { 200: permissionsRequestForUser },
  'permissions-requests-create': { 200: permissionsRequestForApp, 429: apiErrors },
  'permissions-requests-pending-show': { 200: permissionsRequestForUser, 404: null },
  'permissions-requests-show': { 200: permissionsRequestForApp },
  'progress-adjustments-create': { 204: null, 409: apiErrors },
  'proposed-orders-create': { 200: proposedOrderResponse, 409: apiErrors },
  'qr-code-validations-create': { 200: qrCodeValidationResponse, 404: null },
  'qr-codes-show': { 200: z.union([qrCodeResponse, z.string().check(z.meta({ contentMediaType: 'image/png', contentEncoding: 'binary' }))]) },
  'registration-show': { 200: registration, 429: apiErrors },
  'rewards-pause': { 200: rewardResponse },
  'rewards-unpause': { 200: rewardResponse },
  'staff-create': { 200: staffMemberResponse, 409: apiErrors },
  'staff-delete': { 204: null, 409: apiErrors, 422: apiErrors },
  'staff-list': { 200: staffMemberList, 204: null },
  'staff-me-show': { 200: staffMemberResponse },
  'staff-update': { 200: staffMemberResponse, 409: apiErrors },
  'tickets-create': { 200: ticketResponse },
  'upsells-create': { 200: upsellSuggestionResponse, 204: null },
  'user-addresses-create': { 200: userAddressResponse },
  'user-addresses-delete': { 200: userAddressResponse },
  'user-addresses-delivery-location-show': { 200: deliveryLocationResponse },
  'user-addresses-list': { 200: z.array(userAddressResponse) },
  'user-addresses-update': { 200: userAddressResponse, 409: apiErrors },
  'users-create': { 200: z.object({ user: userV14 }), 422: apiErrors },
  'users-create-with-permissions': { 200: userWithAccessToken },
  'users-orders-list': { 200: userOrderList },
  'users-show': { 200: userResponse },
  'users-show-v14': { 200: userResponse },
  'users-update': { 200: userResponse },
  'users-update-v14': { 200: userResponse },
  'webhook-endpoint-deliveries-list': { 200: webhookDeliveryList, 204: null },
  'webhook-endpoint-replays-create': { 200: replayResponse },
  'webhook-endpoint-secrets-create': { 200: webhookEndpointResponse },
  'webhook-endpoints-create': { 200: webhookEndpointResponse },
  'webhook-endpoints-delete': { 204: null },
  'webhook-endpoints-list': { 200: webhookEndpointList, 204: null },
};
