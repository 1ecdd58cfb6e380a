import { apiHandler } from '#shared/http/handler.ts';

/**
 * Swagger UI (swagger-ui-dist, served by docs-assets-show from node_modules; no CDN) rendering
 * /openapi.json. URLs are relative, so the page works under any host and stage prefix.
 *
 * Tags start closed, with the filter box: opened all at once, the API's tags and operations make a list long
 * enough for Swagger UI to virtualize (only what is near the viewport is in the page, so the browser's Find
 * misses the rest); one area open at a time stays whole. Deep links open their tag (docs/openapi.md).
 */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Loyalty API reference</title>
    <link rel="stylesheet" href="docs/assets/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="docs/assets/swagger-ui-bundle.js"></script>
    <script>
      window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'none', filter: true, defaultModelsExpandDepth: 0 });
    </script>
  </body>
</html>
`;

/** GET /docs: the human-readable API reference. */
export const handler = apiHandler('docs-show', { summary: 'The API reference page (Swagger UI)' }, async () => ({
  status: 200,
  rawBody: PAGE,
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
}));
