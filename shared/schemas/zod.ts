/**
 * zod as this project uses it: every schema is built from here, never from `zod` or `zod/mini` directly
 * (test/architecture/layout.unit.test.ts). zod/mini is zod's functional API over the same core: a bundled
 * schema is ~17 KiB of zod instead of the classic API's ~90, and it builds several times faster, so a
 * module's schemas are plain consts built at import. zod/mini loads no locale; the error bodies embed
 * zod's English issue messages (shared/http/validation.ts), so the English locale, and only it, is loaded
 * here, once, before any schema exists.
 */
import { config } from 'zod/mini';
import english from 'zod/v4/locales/en.js';

config(english());

export * from 'zod/mini';
