import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { apiHandler } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { findRoute } from '#shared/routes.ts';

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** The route's bundledFiles by file name: the docs page's script and stylesheet (swagger-ui-dist). */
const served = new Map((findRoute('docs-assets-show').bundledFiles ?? []).map((file) => [basename(file), file]));
const loaded = new Map<string, string>();

/** In Lambda the file was copied beside the bundle (infra/constructs/route-functions.ts); locally it is read from node_modules. */
function read(name: string, packagePath: string): string {
  let text = loaded.get(name);
  if (text === undefined) {
    const beside = fileURLToPath(new URL(name, import.meta.url));
    text = readFileSync(existsSync(beside) ? beside : createRequire(import.meta.url).resolve(packagePath), 'utf8');
    loaded.set(name, text);
  }
  return text;
}

const params = z.object({ file: z.string() });

/** GET /docs/assets/{file}: the docs renderer's files, shipped from node_modules (no CDN). */
export const handler = apiHandler(
  'docs-assets-show',
  {
    params,
    responses: { 200: z.union([z.string().meta({ contentMediaType: 'text/javascript' }), z.string().meta({ contentMediaType: 'text/css' })]) },
    summary: "The docs page's script and stylesheet",
  },
  async (request) => {
    const name = request.params.file;
    const packagePath = served.get(name);
    const contentType = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))];
    if (!packagePath || !contentType) throw notFound();
    return { status: 200, rawBody: read(name, packagePath), headers: { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=86400' } };
  },
);
