import { createLevelUpClient, LevelUpApiError, type ApiErrors, type components, type LevelUpClient } from '../../clients/typescript/index.ts';

/** The signed-in staff member (GET .../staff/me). */
export type StaffMember = components['schemas']['StaffMember']['staff'];

/** What every page of a signed-in tab is given: the client (with the token), the merchant, who is signed in. */
export interface PageProps {
  client: LevelUpClient;
  merchantId: number;
  me: StaffMember;
}

/** What a signed-in tab keeps: the staff member's token and merchant. sessionStorage: gone with the tab, never a cookie. */
export interface Session {
  token: string;
  merchantId: number;
}

const SESSION_KEY = 'console.session';

export function loadSession(): Session | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as Partial<Session> | null;
    if (typeof stored?.token === 'string' && typeof stored.merchantId === 'number') return { token: stored.token, merchantId: stored.merchantId };
  } catch {
    // A damaged entry is no session: the sign-in form shows.
  }
  return undefined;
}

function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}

/** The signed-in token, outside React: the client reads it before each request, so a sign-out takes effect at once. */
let currentToken: string | undefined = loadSession()?.token;

/** Keeps the session in this tab (or forgets it) and hands its token to the client. */
export function keepSession(session: Session | undefined): void {
  currentToken = session?.token;
  saveSession(session);
}

/** The API is on the console's own origin (the same distribution; the gateway locally). */
export const client: LevelUpClient = createLevelUpClient({ baseUrl: window.location.origin, token: () => currentToken });

/** The app whose key staff sign in through: /console/config.json, written at deployment (docs/console.md). */
export async function loadApiKey(): Promise<string | undefined> {
  const response = await fetch(`${import.meta.env.BASE_URL}config.json`, { cache: 'no-cache' });
  if (!response.ok) return undefined;
  const config = (await response.json()) as { api_key?: unknown };
  return typeof config.api_key === 'string' && config.api_key !== '' ? config.api_key : undefined;
}

/** A failed request as the console shows it: words a cashier understands, and the request id to quote to support. */
export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}

/** What the API's error code or status means to the person at the till. */
function plainWords(status: number, errors: ApiErrors | undefined): string {
  const code = errors?.[0]?.error.code;
  if (code === 'role_not_allowed') return 'Your role does not allow this. Ask an owner or a manager.';
  if (code === 'staff_login_required') return 'Sign in with your own email, not the shared register login.';
  if (code === 'login_locked' || code === 'too_many_failed_logins') return 'Too many attempts. Wait a few minutes, then try again.';
  if (status === 401) return 'Your session has ended. Please sign in again.';
  if (status === 403) return 'You are not allowed to do this.';
  if (status === 404) return 'This was not found. It may have been removed.';
  if (status === 409) return 'Someone else changed this at the same time. Please try again.';
  if (status === 429) return 'The system is busy. Wait a moment, then try again.';
  if (status === 422) return errors?.[0]?.error.message ?? 'Please check what you entered.';
  if (status >= 500) return 'Something went wrong on our side. Please try again in a moment.';
  return 'That did not work. Please try again.';
}

/** Turns a non-2xx answer into a ConsoleError; a 2xx passes its body through. */
export function answered<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.response.ok && answer.data !== undefined) return answer.data;
  const { status, headers } = answer.response;
  throw new ConsoleError(plainWords(status, answer.error as ApiErrors | undefined), status, headers.get('X-Request-Id') ?? undefined);
}

/** Any failure as a ConsoleError: a lost connection has no status and no request id. */
export function asConsoleError(failure: unknown): ConsoleError {
  if (failure instanceof ConsoleError) return failure;
  // A paged read (allItems) throws the client's own error: the same words and request id as any other answer.
  if (failure instanceof LevelUpApiError) return new ConsoleError(plainWords(failure.status, failure.errors), failure.status, failure.requestId);
  return new ConsoleError('The connection failed. Check the network, then try again.', 0, undefined);
}
