import { FastifyReply, FastifyRequest } from 'fastify';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/** JSON is UTF-8 (RFC 8259): another declared charset is refused as unsupported before parsing (decision 0016). */
export function refuseNonUtf8Json(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const declared = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8') {
    done();
    return;
  }
  void reply
    .status(415)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify({ error: 'validation_failed', detail: 'Content-Type: the charset must be utf-8' }));
}
