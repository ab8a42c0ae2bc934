import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { serveDocsPage } from './docs-page';
import { ERRORS_DOC_PATH, serveErrorsDoc } from './errors-doc';
import { JsonObject, asArray, asObject, jsonOf, schema31 } from '../../shared/requests/json-schema';

const PARTNER_PREFIX = '/v1/partner/';
/** Where the document is served, without a key. */
const OPENAPI_DOCUMENT_PATH = 'v1/partner/openapi.json';
/** The browsable page (Swagger UI). */
const DOCS_PATH = 'docs';
const TITLE = 'Partner Recharge and Bill Payment API';
/** The interface version of the specification (the path segment stays v1). */
const VERSION = '1.0.0';

/** The OpenAPI 3.1 document of the partner API, generated from controllers and DTOs: routes under /v1/partner/ only. */
function buildOpenApiDocument(app: INestApplication): JsonObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle(TITLE)
    .setDescription(
      [
        'Mobile prepaid topups and bill payments for partners in the IN (INR), BD (BDT) and SG (SGD) corridors, paid from a prepaid wallet in the corridor currency.',
        '',
        'Every request carries `Authorization: Bearer <API_KEY>`; the key prefix chooses the environment (`svc_live_` live, `svc_test_` sandbox).',
        'Value-moving calls (`POST /topup`, `POST /pay-bill`) need an `Idempotency-Key` header, debit the wallet at once and answer `PENDING`;',
        '`GET /transactions/{order_id}` is the authoritative status. Money amounts in responses are decimal strings; request `amount` is a JSON number.',
        `Every failure carries the Error body; the error reference (${ERRORS_DOC_PATH}) lists every code with its status,` +
          ' cause, what to do and whether a retry is safe.',
      ].join('\n'),
    )
    .setExternalDoc(
      'Error reference: every error code, its HTTP status, its cause, what to do, and whether retrying is safe',
      ERRORS_DOC_PATH,
    )
    .setVersion(VERSION)
    // The license of the project; the server is the service that serves the document (its paths are absolute).
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer('/', 'This service: the one that serves this document')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key',
      description: 'svc_live_… (live) or svc_test_… (sandbox) followed by 32 base64url characters',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  if (document.info.contact && Object.keys(document.info.contact).length === 0) delete document.info.contact;
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => path.startsWith(PARTNER_PREFIX)),
  );
  const usedTags = new Set(
    Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation: { tags?: string[] }) => operation?.tags ?? []),
    ),
  );
  if (document.tags) document.tags = document.tags.filter((tag) => usedTags.has(tag.name));
  return toOpenApi31(document);
}

/** Serves the document at GET /v1/partner/openapi.json and Swagger UI at GET /docs, both without a key. */
export function setupOpenApi(app: NestFastifyApplication): void {
  // Built on the first request, then kept: scanning the controllers takes ~100 ms, which every start would pay.
  // Not SwaggerModule.setup: it takes @nestjs/swagger's 3.0-typed OpenAPIObject, which the 3.1 document is not.
  let document: string | null = null;
  app
    .getHttpAdapter()
    .getInstance()
    .get(`/${OPENAPI_DOCUMENT_PATH}`, (_, reply) => {
      document ??= JSON.stringify(buildOpenApiDocument(app));
      void reply.type('application/json').send(document);
    });
  serveDocsPage(app, DOCS_PATH, `/${OPENAPI_DOCUMENT_PATH}`, `${TITLE} ${VERSION}`);
  serveErrorsDoc(app);
}

// @nestjs/swagger writes OpenAPI 3.0 schemas; 3.1's are JSON Schema 2020-12: `nullable` becomes a "null" type
// (or a union around a reference), `example` becomes `examples`, a boolean exclusive bound the numeric one.
function toOpenApi31(document: OpenAPIObject): JsonObject {
  const copy = asObject(jsonOf(document)) ?? {};
  const components = asObject(copy.components);
  const schemas = asObject(components?.schemas);
  if (schemas) for (const name of Object.keys(schemas)) schemas[name] = schema31(schemas[name]);
  const paths = asObject(copy.paths) ?? {};
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(asObject(item) ?? {})) {
      const op = asObject(operation);
      if (!op) continue;
      for (const parameter of asArray(op.parameters)) {
        const param = asObject(parameter);
        if (param && param.schema !== undefined) param.schema = schema31(param.schema);
      }
      convertContent(asObject(op.requestBody));
      for (const response of Object.values(asObject(op.responses) ?? {})) {
        const answer = asObject(response);
        convertContent(answer);
        for (const header of Object.values(asObject(answer?.headers) ?? {})) {
          const h = asObject(header);
          if (h && h.schema !== undefined) h.schema = schema31(h.schema);
        }
      }
    }
  }
  return copy;
}

function convertContent(holder: JsonObject | null): void {
  for (const media of Object.values(asObject(holder?.content) ?? {})) {
    const m = asObject(media);
    if (m && m.schema !== undefined) m.schema = schema31(m.schema);
  }
}
