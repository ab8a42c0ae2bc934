import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply } from 'fastify';
import { STATIC_PAGE_SECURITY_HEADERS } from '../../shared/web/serve-web-page';
import { escapeHtml } from '../html-text';

/** The Swagger UI files the page needs, with their content types. Nothing else is served from the folder. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

// Swagger UI's one added `<style>`, allowed by hash: a new swagger-ui-dist that changes it shows up as a
// violation in test/integration/api-contract/docs-page-browser.spec.ts, with the new hash.
const SWAGGER_UI_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/** Only its own scripts, never framed (decision 0132); data: images for Swagger UI's icons. */
const DOCS_PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...STATIC_PAGE_SECURITY_HEADERS,
  'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self' ${SWAGGER_UI_STYLE_HASH}; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
};

// Swagger UI from swagger-ui-dist on three plain Fastify routes. SwaggerModule's own UI needs @fastify/static,
// whose ES-module-only content-disposition the Jest tests' CommonJS loader cannot require.
export function serveDocsPage(app: NestFastifyApplication, docsPath: string, documentUrl: string, title: string): void {
  const folder = dirname(
    require.resolve('swagger-ui-dist/package.json', { paths: [dirname(require.resolve('@nestjs/swagger'))] }),
  );
  const cache = new Map<string, Buffer>();
  const file = (name: string): Buffer => {
    let content = cache.get(name);
    if (!content) {
      content = readFileSync(join(folder, name));
      cache.set(name, content);
    }
    return content;
  };
  const base = `/${docsPath}`;
  const html = page(base, documentUrl, title);
  const init = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(documentUrl)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    validatorUrl: null,
  });
};
`;
  const fastify = app.getHttpAdapter().getInstance();
  const sendPage = (_: unknown, reply: FastifyReply): void => {
    void reply.headers(DOCS_PAGE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(html);
  };
  fastify.get(base, sendPage);
  fastify.get(`${base}/`, sendPage);
  fastify.get(`${base}/swagger-ui-init.js`, (_, reply) => {
    void reply.headers(DOCS_PAGE_SECURITY_HEADERS).type('application/javascript; charset=utf-8').send(init);
  });
  fastify.get<{ Params: { asset: string } }>(`${base}/assets/:asset`, (request, reply) => {
    const type = Object.prototype.hasOwnProperty.call(ASSETS, request.params.asset)
      ? ASSETS[request.params.asset]
      : undefined;
    if (!type) {
      void reply
        .headers(DOCS_PAGE_SECURITY_HEADERS)
        .status(404)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ error: 'not_found', detail: 'no such documentation asset' }));
      return;
    }
    void reply
      .headers(DOCS_PAGE_SECURITY_HEADERS)
      .type(type)
      .header('cache-control', 'public, max-age=86400')
      .send(file(request.params.asset));
  });
}

function page(base: string, documentUrl: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <link rel="stylesheet" href="${base}/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}/assets/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="${base}/assets/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <noscript>The interface description is at <a href="${escapeHtml(documentUrl)}">${escapeHtml(documentUrl)}</a>.</noscript>
  <div id="swagger-ui"></div>
  <script src="${base}/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/assets/swagger-ui-standalone-preset.js"></script>
  <script src="${base}/swagger-ui-init.js"></script>
</body>
</html>
`;
}
