/**
 * index-phones (registered in scripts/admin.ts): the phone index (docs/data-model.md, "Phone index") for users made
 * before it existed, so the customer lookup by phone finds them too. Resumable and idempotent: it prints where it
 * stopped (`next`), which `--from` continues; run again from the start, it writes the same entries again.
 */
import { UsageError, integerOption, optionsOf, stringOption, type AdminCommand } from './options.ts';
import { backfillPhoneIndexPage } from '#shared/domain/identity/phones.ts';

/** Items a page of the Scan reads (DynamoDB stops a page at 1 MB anyway). */
const DEFAULT_PAGE_SIZE = 500;
const MAX_PAGE_SIZE = 1000;

export const indexPhonesCommand: AdminCommand = {
  summary: "Index every user's phone for the customer lookup by phone (once, before relying on it; resumable with --from, idempotent).",
  usage: `[--from <the "next" a previous run printed>] [--page-size <items per Scan page, at most ${MAX_PAGE_SIZE}>] [--pages <stop after this many pages>]`,
  options: optionsOf(['from', 'page-size', 'pages']),
  async run(values) {
    const pageSize = integerOption(values, 'page-size') ?? DEFAULT_PAGE_SIZE;
    if (pageSize > MAX_PAGE_SIZE) throw new UsageError(`--page-size is at most ${MAX_PAGE_SIZE}`);
    const maxPages = integerOption(values, 'pages') ?? Number.POSITIVE_INFINITY;
    let from = stringOption(values, 'from');
    if (from !== undefined && !isScanKey(from)) throw new UsageError('--from takes the "next" value a previous run printed');
    const total = { pages: 0, scanned: 0, indexed: 0, next: null as string | null };
    do {
      const page = await backfillPhoneIndexPage(from, pageSize);
      total.pages += 1;
      total.scanned += page.scanned;
      total.indexed += page.indexed;
      total.next = page.next;
      from = page.next ?? undefined;
    } while (from !== undefined && total.pages < maxPages);
    return total;
  },
};

/** Whether a value is a Scan position as a run prints it: a JSON object of the table's key attributes (strings). */
function isScanKey(value: string): boolean {
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((attribute) => typeof attribute === 'string');
  } catch {
    return false;
  }
}
