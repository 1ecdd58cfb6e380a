/**
 * The demo merchants run their business as any merchant does (issue 38): the operators only add each merchant's
 * first owner (`npm run admin -- staff-add-owner` calls the same addFirstOwner), the owner sets a password through
 * the invite mail's link and signs in through POST /v15/access_tokens, and everything a merchant may do itself
 * (locations, campaigns) then goes through the management API over HTTP, with the typed client of
 * clients/typescript. Each creation is sent under a fixed Idempotency-Key, so a seed cut short and run again
 * replays the answers of what it made instead of making it twice.
 */
import {
  createLevelUpClient,
  LevelUpApiError,
  withIdempotencyKey,
  type ApiErrors,
  type LevelUpClient,
  type operations,
} from '../../clients/typescript/index.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import { composeStaffInviteMail } from '#shared/domain/staff/invites.ts';
import { addFirstOwner } from '#shared/domain/staff/members.ts';

export interface DemoOwnerLogin {
  email: string;
  name: string;
  password: string;
}

/** An owner signed in through the API: their token, and a client that sends it. */
export interface OwnerSession {
  merchantId: number;
  staffId: number;
  email: string;
  password: string;
  token: string;
  client: LevelUpClient;
}

/** Throws the API's own errors when an answer is not the success the seed needs. */
function succeeded<Data>(answer: { data?: Data; error?: unknown; response: Response }): Data {
  if (answer.data === undefined) throw new LevelUpApiError(answer.response.status, answer.error as ApiErrors | undefined);
  return answer.data;
}

/** The secret of the set-password link in an invite mail (the part after `#token=`). */
function linkSecret(text: string): string {
  const secret = /#token=([^\s"<]+)/.exec(text)?.[1];
  if (!secret) throw new Error('the invite mail holds no set-password link');
  return secret;
}

/**
 * The merchant's first owner, signed in. Each step is done only if it is not done yet, so a seed cut short
 * anywhere here finishes on the next start: the operators add the owner (unless their login exists), the owner
 * sets their password through the invite mail's link (unless they have one: the mail composed here is the one
 * the outbox would send), then signs in with the app's API key.
 */
export async function signInFirstOwner(options: {
  apiUrl: string;
  baseUrl: string;
  apiKey: string;
  merchantId: number;
  owner: DemoOwnerLogin;
}): Promise<OwnerSession> {
  const email = options.owner.email.toLowerCase();
  const api = createLevelUpClient({ baseUrl: options.apiUrl });
  let login = await Login.at(email).get({ consistent: true });
  if (!login) {
    await addFirstOwner({ merchantId: options.merchantId, email, name: options.owner.name, baseUrl: options.baseUrl });
    login = await Login.at(email).get({ consistent: true });
  }
  if (login?.staff_id === undefined || login.merchant_id !== options.merchantId)
    throw new Error(`${email} signs in, but not as an owner of merchant ${options.merchantId}`);
  const staffId = login.staff_id;
  if (login.password_hash === undefined) {
    const mail = await composeStaffInviteMail(email, options.baseUrl, staffId);
    if (!mail) throw new Error(`no invite to send to ${email}`);
    const reset = await api.POST('/v15/password_resets', { body: { password_reset: { token: linkSecret(mail.text), password: options.owner.password } } });
    if (!reset.response.ok) throw new LevelUpApiError(reset.response.status, reset.error);
  }
  const signedIn = succeeded(
    await api.POST('/v15/access_tokens', { body: { access_token: { api_key: options.apiKey, username: email, password: options.owner.password } } }),
  );
  const token = signedIn.access_token.token;
  return {
    merchantId: options.merchantId,
    staffId,
    email,
    password: options.owner.password,
    token,
    client: createLevelUpClient({ baseUrl: options.apiUrl, token }),
  };
}

/**
 * Sends one creation under the Idempotency-Key `demo-seed:<label>` (retried on 409, 429 and 5xx with that same key)
 * and answers its body; a refusal throws the API's errors. The same label and body on a later start replays the
 * first answer: the label names the thing made, once per merchant.
 */
export async function createOnce<Data>(
  label: string,
  send: (idempotencyKey: string) => Promise<{ data?: Data; error?: unknown; response: Response }>,
): Promise<Data> {
  return succeeded(await withIdempotencyKey(send, { key: `demo-seed:${label}` }));
}

export type NewLocation = operations['location-settings-create']['requestBody']['content']['application/json']['location'];
export type NewCampaign = operations['managed-campaigns-create']['requestBody']['content']['application/json']['campaign'];

/** A location made by the owner through POST /v15/merchants/{merchant_id}/locations; answers its id. */
export async function createLocationAs(owner: OwnerSession, label: string, location: NewLocation): Promise<number> {
  const path = { merchant_id: String(owner.merchantId) };
  const created = await createOnce(`merchant-${owner.merchantId}:location:${label}`, (key) =>
    owner.client.POST('/v15/merchants/{merchant_id}/locations', { params: { path, header: { 'Idempotency-Key': key } }, body: { location } }),
  );
  return created.location.id;
}

/** A campaign made by the owner through POST /v15/merchants/{merchant_id}/campaigns; answers its id. */
export async function createCampaignAs(owner: OwnerSession, label: string, campaign: NewCampaign): Promise<number> {
  const path = { merchant_id: String(owner.merchantId) };
  const created = await createOnce(`merchant-${owner.merchantId}:campaign:${label}`, (key) =>
    owner.client.POST('/v15/merchants/{merchant_id}/campaigns', { params: { path, header: { 'Idempotency-Key': key } }, body: { campaign } }),
  );
  return created.campaign.id;
}

export type NewMenu = operations['menu-drafts-update']['requestBody']['content']['application/json']['menu_draft']['menu'];

/**
 * A location's menu made by the owner as the merchant makes one: its first draft saved (version 0), then published
 * (version 1), each under its own createOnce key, so a later start replays both; answers the published menu's id.
 */
export async function publishMenuAs(owner: OwnerSession, label: string, locationId: number, menu: NewMenu): Promise<number> {
  const path = { merchant_id: String(owner.merchantId), location_id: String(locationId) };
  const draftLabel = `merchant-${owner.merchantId}:menu:${label}`;
  await createOnce(`${draftLabel}:draft`, (key) =>
    owner.client.PUT('/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft', {
      params: { path, header: { 'Idempotency-Key': key } },
      body: { menu_draft: { version: 0, menu } },
    }),
  );
  const published = await createOnce(`${draftLabel}:publish`, (key) =>
    owner.client.POST('/v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/publish', {
      params: { path, header: { 'Idempotency-Key': key } },
      body: { menu_draft: { version: 1 } },
    }),
  );
  const menuId = published.menu_draft.menu_id;
  if (menuId === null) throw new Error(`the menu of location ${locationId} was published without an id`);
  return menuId;
}
