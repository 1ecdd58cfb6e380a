import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { isoSeconds } from '#shared/time.ts';
import type { FeedbackRequest, InterstitialAction, InterstitialType, ShareAction } from '#shared/schemas/app-surface.ts';
import { getCampaign } from '#shared/domain/loyalty/campaigns.ts';

/**
 * Post-order interstitials (A6) and the feedback they ask for (A7). A merchant has at most one
 * interstitial, set by an operator (`npm run admin -- set-interstitial`); every order at that merchant
 * shows it. Its image is the attached campaign's image when it names one, else the order's location image.
 */
export interface InterstitialAttributes {
  merchant_id: number;
  type: InterstitialType;
  title: string;
  description_html: string;
  callout_text: string;
  /** The campaign the interstitial is about (claim: the one whose cohort code is offered); its image is shown. */
  campaign_id: number | null;
  action: InterstitialAction;
  updated_at: string;
}

export const Interstitial = defineEntity<InterstitialAttributes>()({ entity: 'Interstitial', key: keys.merchantInterstitial });
export type InterstitialItem = EntityItem<typeof Interstitial>;

export interface InterstitialInput {
  merchantId: number;
  type: InterstitialType;
  title: string;
  descriptionHtml?: string;
  calloutText?: string;
  campaignId?: number;
  questionText?: string;
  url?: string;
  buttonText?: string;
  share?: Partial<ShareAction>;
}

export class InterstitialInputError extends Error {
  override readonly name = 'InterstitialInputError';
}

async function actionFor(input: InterstitialInput): Promise<InterstitialAction> {
  switch (input.type) {
    case 'claim': {
      if (input.campaignId === undefined) throw new InterstitialInputError('a claim interstitial names the campaign whose cohort code it offers (campaign id)');
      const campaign = await getCampaign(input.campaignId);
      if (!campaign || campaign.merchant_id !== input.merchantId)
        throw new InterstitialInputError(`campaign ${input.campaignId} is not a campaign of merchant ${input.merchantId}`);
      if (!campaign.cohort_code) throw new InterstitialInputError(`campaign ${input.campaignId} has no cohort code to claim`);
      return { code: campaign.cohort_code };
    }
    case 'feedback':
      if (!input.questionText?.trim()) throw new InterstitialInputError('a feedback interstitial needs its question text');
      return { question_text: input.questionText.trim() };
    case 'url': {
      if (!input.url || !/^https:\/\/[^\s]+$/i.test(input.url)) throw new InterstitialInputError('a url interstitial needs an https URL');
      return { url: input.url, button_text: input.buttonText?.trim() || 'Learn more' };
    }
    case 'share': {
      const share = input.share ?? {};
      const fields: (keyof ShareAction)[] = [
        'message_for_email_subject',
        'message_for_email_body',
        'message_for_facebook',
        'message_for_twitter',
        'share_url_email',
        'share_url_facebook',
        'share_url_twitter',
      ];
      // A network the merchant does not share on is an empty string (the iOS fixture leaves Facebook out).
      const urls = fields.filter((field) => field.startsWith('share_url_') && typeof share[field] === 'string' && share[field] !== '');
      if (urls.length === 0)
        throw new InterstitialInputError('a share interstitial needs at least one of share_url_email, share_url_facebook, share_url_twitter');
      return Object.fromEntries(fields.map((field) => [field, typeof share[field] === 'string' ? share[field] : ''])) as ShareAction;
    }
    case 'no_action':
      return null;
  }
}

/** Sets (or replaces) a merchant's interstitial. Throws InterstitialInputError for an incomplete one. */
export async function setInterstitial(input: InterstitialInput): Promise<InterstitialAttributes> {
  if (!input.title.trim()) throw new InterstitialInputError('an interstitial needs a title');
  if (input.campaignId !== undefined) {
    const campaign = await getCampaign(input.campaignId);
    if (!campaign || campaign.merchant_id !== input.merchantId)
      throw new InterstitialInputError(`campaign ${input.campaignId} is not a campaign of merchant ${input.merchantId}`);
  }
  const item: InterstitialAttributes = {
    merchant_id: input.merchantId,
    type: input.type,
    title: input.title.trim(),
    description_html: input.descriptionHtml ?? '',
    callout_text: input.calloutText ?? '',
    campaign_id: input.campaignId ?? null,
    action: await actionFor(input),
    updated_at: isoSeconds(),
  };
  await db().send(new PutCommand(Interstitial.at(input.merchantId).put(item).Put));
  return item;
}

export async function getInterstitial(merchantId: number): Promise<InterstitialItem | undefined> {
  return Interstitial.at(merchantId).get({ consistent: false });
}

/** The interstitial as the SDKs read it; `image_url` is a base URL the client adds its size to. */
export function serializeInterstitial(interstitial: InterstitialAttributes, order: { location_id: number }, baseUrl: string) {
  return {
    interstitial: {
      type: interstitial.type,
      title: interstitial.title,
      description_html: interstitial.description_html,
      callout_text: interstitial.callout_text,
      image_url:
        interstitial.campaign_id !== null
          ? `${baseUrl}/v14/campaigns/${interstitial.campaign_id}/image`
          : `${baseUrl}/v14/locations/${order.location_id}/image`,
      action: interstitial.action,
    },
  };
}

export interface FeedbackAttributes {
  order_uuid: string;
  user_id: number;
  merchant_id: number;
  question_text: string;
  rating: number | null;
  comment: string | null;
  updated_at: string;
}

/** A user's answer to a feedback interstitial: one per order, the latest answer kept. */
export const Feedback = defineEntity<FeedbackAttributes>()({ entity: 'Feedback', key: keys.orderFeedback });
export type FeedbackItem = EntityItem<typeof Feedback>;

/**
 * Stores a user's answer for one of their orders. A second answer replaces the first: a client that
 * retries after a lost response must not get an error, and the latest answer is the user's opinion.
 */
export async function recordFeedback(order: { uuid: string; user_id: number; merchant_id: number }, request: FeedbackRequest): Promise<FeedbackAttributes> {
  const item: FeedbackAttributes = {
    order_uuid: order.uuid,
    user_id: order.user_id,
    merchant_id: order.merchant_id,
    question_text: request.feedback.question_text,
    rating: request.feedback.rating,
    comment: request.feedback.comment,
    updated_at: isoSeconds(),
  };
  await db().send(new PutCommand(Feedback.at(order.uuid).put(item).Put));
  return item;
}

export async function getFeedback(orderUuid: string): Promise<FeedbackItem | undefined> {
  return Feedback.at(orderUuid).get({ consistent: false });
}
