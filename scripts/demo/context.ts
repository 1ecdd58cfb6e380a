import type { OwnerSession } from './management.ts';

/**
 * The demo's shapes: what the foundation seeds and what each area seeder (scripts/demo/<area>.ts)
 * gets. Apart from seed.ts, which runs the seeders, so a seeder never imports its runner.
 */
export interface DemoUser {
  id: number;
  email: string;
  password: string;
  /** User token (all user permissions, granted as by username and password). */
  token: string;
  /** QR code data a POS scans for this user. */
  payment_token_data: string;
  has_card: boolean;
}

/** A merchant's first owner (a staff member with every right): their login, and a token of theirs for the management API. */
export interface DemoOwner {
  email: string;
  password: string;
  staff_id: number;
  token: string;
}

/** The foundation part of .local/demo.json; every area seeder gets it. */
export interface FoundationDemo {
  base_url: string;
  /** client_secret: with api_key, an app token (POST /v15/access_tokens), e.g. for permissions requests. */
  app: { id: number; api_key: string; client_secret: string };
  /** manager_confirmation is added by the money seeder: refunds at this merchant must send it. */
  merchant: {
    id: number;
    /** The shared POS login's token (every POS route; no management route). */
    token: string;
    location_ids: number[];
    username: string;
    password: string;
    owner: DemoOwner;
    manager_confirmation?: string;
  };
  other_merchant: { id: number; token: string; location_ids: number[]; owner: DemoOwner };
  users: DemoUser[];
  card_nonces: { valid: string; invalid_expiration: string; declines: string; limited_funds: string; limited_funds_amount: number };
}

/** .local/demo.json: the foundation plus whatever keys the area seeders returned. */
export type Demo = FoundationDemo & Record<string, unknown>;

/**
 * What an area seeder gets: the foundation demo (ids, tokens, ...), the demo merchant's owner signed in (what the
 * merchant may do itself goes through the management API with it, under createOnce's fixed Idempotency-Keys, so a
 * seeder run again after a start cut short replays instead of making twice) and a progress logger.
 */
export interface DemoContext extends FoundationDemo {
  owner: OwnerSession;
  progress(step: string, fields?: Record<string, unknown>): void;
}

export type AreaSeeder = (context: DemoContext) => Promise<Record<string, unknown>>;
