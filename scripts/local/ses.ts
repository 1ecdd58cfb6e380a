/**
 * The SES v2 emulator (`aws-ses-v2-local`) for `npm start` and the tests: the mailer's SES client
 * (shared/mail/mailer.ts) points at it through SES_ENDPOINT. It keeps sent mail in memory and shows
 * it on its own page (`GET /`); `GET /store` lists it as JSON, which is how the tests read it.
 */
import type { Server } from 'node:http';
import emulator from 'aws-ses-v2-local';

// A CommonJS module: its default export arrives as `default` of the imported namespace under ESM.
const startEmulator = ((emulator as unknown as { default?: typeof emulator }).default ?? emulator) as unknown as (config?: {
  host?: string;
  port?: number;
}) => Promise<Server>;

export interface SesLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** The sender the local stack uses (the emulator accepts any address). */
export const LOCAL_MAIL_FROM = 'Loyalty API <no-reply@loyalty.local>';

export async function startSesLocal(options: { port?: number; host?: string } = {}): Promise<SesLocal> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = await startEmulator({ host, port: options.port ?? 0 });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    endpoint: `http://${host}:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface SentEmail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** Mail the emulator holds, newest last. */
export async function sentEmails(endpoint: string): Promise<SentEmail[]> {
  const response = await fetch(`${endpoint}/store`);
  if (!response.ok) throw new Error(`SES emulator answered ${response.status}`);
  return ((await response.json()) as { emails: SentEmail[] }).emails;
}
