/**
 * Parses the Authorization header forms real clients send:
 *   token <T>                                  (iOS, Android, C# untagged; user, merchant or app)
 *   token user="<T>"  /  token merchant="<T>"  (quotes optional: the PowerShell module sends none)
 *   token merchant="<M>", user="<U>"           (C# and Ruby; the space after the comma is optional)
 *
 * Work is linear in the header's length, and the length is bounded: a header longer than
 * MAX_AUTHORIZATION_LENGTH is malformed before any parsing (the longest real form, two 64-hex tokens
 * tagged and quoted, is under 200 characters). The old single regular expression `token\s+(.+?)\s*$`
 * backtracked quadratically on whitespace (a 20 KB header cost ~0.3 s of CPU per request).
 */
export interface PresentedTokens {
  /** Untagged tokens: their kind comes from the stored token, not the header. */
  untagged: string[];
  user?: string;
  merchant?: string;
}

/** Longest Authorization header parsed; longer ones are malformed (401). */
export const MAX_AUTHORIZATION_LENGTH = 1024;

const SCHEME = /^token\s/i;
/** `user="T"`, `user=T`, `merchant = "T"`: every quantifier is followed by a character it cannot match, so no backtracking. */
const TAGGED = /^(user|merchant)\s*=\s*(?:"([^"\s=,]+)"|([^"\s=,]+))$/i;
const UNTAGGED = /^[^\s"=,]+$/;

export function parseAuthorization(header: string | undefined): PresentedTokens | undefined {
  if (!header || header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const text = header.trim();
  if (!SCHEME.test(text)) return undefined;
  const parts = text
    .slice('token'.length)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const presented: PresentedTokens = { untagged: [] };
  for (const part of parts) {
    const tagged = TAGGED.exec(part);
    if (tagged) {
      const kind = tagged[1]!.toLowerCase() as 'user' | 'merchant';
      if (presented[kind] !== undefined) return undefined;
      presented[kind] = tagged[2] ?? tagged[3]!;
    } else if (UNTAGGED.test(part)) {
      presented.untagged.push(part);
    } else {
      return undefined;
    }
  }
  const count = presented.untagged.length + (presented.user ? 1 : 0) + (presented.merchant ? 1 : 0);
  return count === 0 || count > 2 ? undefined : presented;
}
