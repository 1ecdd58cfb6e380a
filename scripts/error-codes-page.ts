/**
 * docs/errors.md as `npm run openapi` writes it: the catalogue's page (shared/http/error-codes.ts) in the
 * tree's Prettier style, so the format check and the staleness test agree on one text.
 */
import prettier from 'prettier';
import { errorCodesMarkdown } from '#shared/http/error-codes.ts';

export async function errorCodesPage(path: string): Promise<string> {
  return prettier.format(errorCodesMarkdown(), { ...(await prettier.resolveConfig(path)), filepath: path });
}
