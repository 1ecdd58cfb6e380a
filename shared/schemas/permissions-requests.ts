import * as z from 'zod';
import { integerId, timestamp } from './common.ts';
import { named, schema } from './registry.ts';

const state = /* @__PURE__ */ schema(() => z.enum(['pending', 'accepted', 'rejected']));

/** What the app sees (create: without email and token). */
export const permissionsRequestForApp = /* @__PURE__ */ schema(() => named(
  'PermissionsRequest',
  z.object({
    permissions_request: z.object({
      app_id: integerId,
      email: z.string().optional(),
      id: integerId,
      permission_keynames: z.array(z.string()),
      state,
      token: z.string().nullable().optional().describe('The granted user token: given once, by the first poll after acceptance (or POSTed to the app callback); null otherwise'),
    }),
  }),
));

/** What the user sees: their pending request, or the one they just answered. */
export const permissionsRequestForUser = /* @__PURE__ */ schema(() => named(
  'UserPermissionsRequest',
  z.object({
    permissions_request: z.object({
      accept_text: z.string(),
      app_id: integerId,
      created_at: timestamp,
      description: z.string(),
      id: integerId,
      reject_text: z.string(),
      state,
      permissions: z.array(z.object({ permission: z.object({ keyname: z.string(), description: z.string() }) })),
    }),
  }),
));
