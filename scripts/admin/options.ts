/**
 * What an admin command is and the helpers that read its options: shared by scripts/admin.ts (the
 * entry and its foundation commands) and the area modules beside this file, so neither imports the other.
 */
import type { ParseArgsOptionsConfig } from 'node:util';

export type OptionValues = Record<string, string | boolean | undefined>;

export interface AdminCommand {
  /** One line for `--help`. */
  summary: string;
  /** The options part of the usage line, e.g. `--name <name> [--global]`. @default none (the command takes no options) */
  usage?: string;
  /** @default none */
  options?: ParseArgsOptionsConfig;
  /** Returns what is printed as JSON. Throw UsageError for bad options, anything else for a failure. */
  run(values: OptionValues): Promise<unknown>;
}

/** A command's options as parseArgs takes them: those that carry a value (`--merchant-id 7`), then the flags (`--clear`). */
export function optionsOf(valued: readonly string[], flags: readonly string[] = []): ParseArgsOptionsConfig {
  return Object.fromEntries([...valued.map((name) => [name, { type: 'string' as const }]), ...flags.map((name) => [name, { type: 'boolean' as const }])]);
}

/** Bad or missing options: exit code 2 with the command's usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure worth a plain message (exit code 1), not a stack trace. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}

/** Runs `work`, a failure of the kind `plain` (the operator's input, refused by the domain) becoming a CommandError with its message. */
export async function withPlainErrors<T>(plain: abstract new (...args: never[]) => Error, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof plain) throw new CommandError(error.message);
    throw error;
  }
}

export function stringOption(values: OptionValues, name: string): string | undefined;
export function stringOption(values: OptionValues, name: string, required: true): string;
export function stringOption(values: OptionValues, name: string, required = false): string | undefined {
  const value = values[name];
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (required) throw new UsageError(`--${name} is required`);
  return undefined;
}

export function integerOption(values: OptionValues, name: string): number | undefined;
export function integerOption(values: OptionValues, name: string, required: true): number;
export function integerOption(values: OptionValues, name: string, required = false): number | undefined {
  const value = required ? stringOption(values, name, true) : stringOption(values, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`--${name} must be a whole number of 1 or more, not "${value}"`);
  return Number(value);
}

export function numberOption(values: OptionValues, name: string): number | undefined;
export function numberOption(values: OptionValues, name: string, required: true): number;
export function numberOption(values: OptionValues, name: string, required = false): number | undefined {
  const value = required ? stringOption(values, name, true) : stringOption(values, name);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new UsageError(`--${name} must be a number, not "${value}"`);
  return number;
}

/** A comma-separated option (`--merchant-ids 1,2`); undefined when not given. */
export function listOption(values: OptionValues, name: string): string[] | undefined {
  const value = stringOption(values, name);
  return value
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

export function integerListOption(values: OptionValues, name: string): number[] | undefined {
  return listOption(values, name)?.map((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) < 1) throw new UsageError(`--${name} must list whole numbers, not "${entry}"`);
    return Number(entry);
  });
}
