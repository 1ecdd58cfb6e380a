/**
 * Parses the Authorization header forms real clients send:
 *   token <T>                                  (iOS, Android, C# untagged; user or merchant)
 *   token user="<T>"  /  token merchant="<T>"
 *   token merchant="<M>", user="<U>"           (C# and Ruby; the space after the comma is optional)
 */
export interface PresentedTokens {
  /** Untagged tokens: their kind comes from the stored token, not the header. */
  untagged: string[];
  user?: string;
  merchant?: string;
}

export function parseAuthorization(header: string | undefined): PresentedTokens | undefined {
  if (!header) return undefined;
  const match = /^\s*token\s+(.+?)\s*$/i.exec(header);
  if (!match) return undefined;
  const parts = match[1]!.split(',').map((part) => part.trim()).filter((part) => part !== '');
  const presented: PresentedTokens = { untagged: [] };
  for (const part of parts) {
    const tagged = /^(user|merchant)\s*=\s*"?([^"\s]+)"?$/i.exec(part);
    if (tagged) {
      const kind = tagged[1]!.toLowerCase() as 'user' | 'merchant';
      if (presented[kind] !== undefined) return undefined;
      presented[kind] = tagged[2]!;
    } else if (/^[^\s"=,]+$/.test(part)) {
      presented.untagged.push(part);
    } else {
      return undefined;
    }
  }
  const count = presented.untagged.length + (presented.user ? 1 : 0) + (presented.merchant ? 1 : 0);
  return count === 0 || count > 2 ? undefined : presented;
}
