/**
 * Stored entities several money modules share: a gift card value order (written by gift-card-orders.ts,
 * claimed and returned by held-gifts.ts, read by the ledger audit) and the index of gifts held for an email.
 * Apart from both writers so neither imports the other's module for its records.
 */
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';

/**
 * `delivered`: loaded on the recipient's gift card at once (their email had an account). `held`: waiting for
 * an account with the email (held-gifts.ts), then `claimed` by it, or `returning` -> `returned` to the buyer's
 * card after UNCLAIMED_GIFT_DAYS.
 */
export type GiftCardValueOrderState = 'delivered' | 'held' | 'claimed' | 'returning' | 'returned';

/** An order as the domain builds and answers it (the stored item adds its buyer index and timestamps). */
export interface GiftCardValueOrder {
  uuid: string;
  buyer_user_id: number;
  /** null while the gift is held for an email with no account. */
  recipient_user_id: number | null;
  merchant_id: number;
  value_amount: number;
  charge_id: string;
  recipient_email: string;
  recipient_name: string | null;
  recipient_message: string | null;
  state: GiftCardValueOrderState;
  /** A held gift's deadline: unclaimed then, it goes back to the buyer's card. */
  held_until: string | null;
  created_at: string;
}

/** A gift card value order, listed in its buyer's gsi1 partition (keys.buyerGiftCardOrdersIndex). */
export const GiftCardValueOrderRecord = defineEntity<
  GiftCardValueOrder & {
    gsi1pk: string;
    gsi1sk: string;
    updated_at: string;
    claimed_at?: string;
    returned_at?: string;
  }
>()({ entity: 'GiftCardValueOrder', key: keys.giftCardValueOrder });

/** The gifts held for one email (by its hash): `version` changes with every hold, claim and return. */
export const HeldGiftsIndex = defineEntity<{
  email: string;
  /** Absent once a return took its last element (DynamoDB keeps no empty set). */
  uuids?: Set<string>;
  version: number;
  updated_at: string;
}>()({ entity: 'HeldGifts', key: keys.heldGifts });
