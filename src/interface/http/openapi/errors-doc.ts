import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Where the error reference (docs/errors.md) is served, without a key; the OpenAPI document links to it. */
export const ERRORS_DOC_PATH = '/docs/errors.md';

/** From src/interface/http/openapi and from dist/interface/http/openapi alike, the repository's docs folder. */
const ERRORS_DOC_FILE = join(__dirname, '..', '..', '..', '..', 'docs', 'errors.md');

/** Serves docs/errors.md as Markdown text, read on the first request. */
export function serveErrorsDoc(app: NestFastifyApplication): void {
  let text: string | null = null;
  app
    .getHttpAdapter()
    .getInstance()
    .get(ERRORS_DOC_PATH, (_, reply) => {
      text ??= readFileSync(ERRORS_DOC_FILE, 'utf8');
      void reply.type('text/markdown; charset=utf-8').send(text);
    });
}
