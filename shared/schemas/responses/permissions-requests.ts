/** A permissions request as the app and as the user see it (the requests: shared/schemas/identity-requests.ts). */
import * as z from '#shared/schemas/zod.ts';
import { integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

const state = z.enum(['pending', 'accepted', 'rejected']);

/** What the app sees (create: without email and token). */
export const permissionsRequestForApp = resource('PermissionsRequest', 'permissions_request', {
  app_id: integerId,
  email: z.optional(z.string()),
  id: integerId,
  permission_keynames: z.array(z.string()),
  state,
  token: z
    .optional(z.nullable(z.string()))
    .check(z.describe('The granted user token: given once, by the first poll after acceptance (or POSTed to the app callback); null otherwise')),
});

/** What the user sees: their pending request, or the one they just answered. */
export const permissionsRequestForUser = resource('UserPermissionsRequest', 'permissions_request', {
  accept_text: z.string(),
  app_id: integerId,
  created_at: timestamp,
  description: z.string(),
  id: integerId,
  reject_text: z.string(),
  state,
  permissions: z.array(z.object({ permission: z.object({ keyname: z.string(), description: z.string() }) })),
});
