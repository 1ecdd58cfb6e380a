/** Structured JSON logs, one line each. Never pass secrets (tokens, passwords, card data) in fields. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const quiet = process.env.LOG_LEVEL === 'silent';

export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  if (quiet) return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
}
