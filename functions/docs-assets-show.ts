import { basename } from 'node:path';
import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { findRoute } from '#shared/routes.ts';
import { readBundledFile } from '#shared/http/bundled-files.ts';

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** The route's bundledFiles by file name: the docs page's script and stylesheet (swagger-ui-dist). */
const served = new Map((findRoute('docs-assets-show').bundledFiles ?? []).map((file) => [basename(file), file]));

const params = z.object({ file: z.string() });

/** GET /docs/assets/{file}: the docs renderer's files, shipped from node_modules (no CDN). */
export const handler = apiHandler(
  'docs-assets-show',
  {
    params,

    summary: "The docs page's script and stylesheet",
  },
  async (request) => {
    const name = request.params.file;
    const file = served.get(name);
    const contentType = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))];
    if (!file || !contentType) throw notFound();
    return { status: 200, rawBody: readBundledFile(file), headers: { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=86400' } };
  },
);
