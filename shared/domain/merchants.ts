import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { hashPassword } from '#shared/auth/secrets.ts';
import { isoSeconds } from '#shared/time.ts';

export interface MerchantItem {
  merchant_id: number;
  name: string;
  description_html: string;
  /** Login name for access token issuance (merchant staff log in with it). */
  username: string;
  /** When set, refunds must carry it as refund.manager_confirmation. */
  manager_confirmation: string | null;
  tip_preference: string;
  created_at: string;
  updated_at: string;
}

export async function createMerchant(input: {
  name: string;
  username: string;
  password: string;
  descriptionHtml?: string;
  managerConfirmation?: string | null;
}): Promise<MerchantItem> {
  const [merchantId, passwordHash] = await Promise.all([nextId('merchant'), hashPassword(input.password)]);
  const now = isoSeconds();
  const merchant: MerchantItem = {
    merchant_id: merchantId,
    name: input.name,
    description_html: input.descriptionHtml ?? `<p>${input.name}</p>`,
    username: input.username.trim().toLowerCase(),
    manager_confirmation: input.managerConfirmation ?? null,
    tip_preference: 'percent',
    created_at: now,
    updated_at: now,
  };
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: table(), Item: { ...keys.login(merchant.username), entity: 'Login', subject: 'merchant', merchant_id: merchantId, password_hash: passwordHash, created_at: now }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: table(), Item: { ...keys.merchant(merchantId), ...keys.merchantCatalogEntry(merchantId), entity: 'Merchant', ...merchant }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    }),
  );
  return merchant;
}

export async function getMerchant(merchantId: number): Promise<MerchantItem | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.merchant(merchantId) }));
  return result.Item as MerchantItem | undefined;
}
