import { Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer } from '../errors/api-exception.filter';

export const NDJSON = 'application/x-ndjson';
const PROGRESS_EVERY_MS = 500;

export type ReportProgress = (done: number, total: number) => void;

export const wantsProgress = (accept: string | undefined): boolean => accept?.includes(NDJSON) ?? false;

// Long work answered as NDJSON (decision 0103): progress lines `{"progress":{"step":"verify","done":1000,"total":52000}}`,
// then `{"result":{"status":200,"body":{...}}}` with what the plain request would answer (or a refusal's
// status and Error body). The HTTP status is 200 as soon as the work starts.
export async function answerWithProgress(
  request: FastifyRequest,
  reply: FastifyReply,
  step: string,
  work: (progress: ReportProgress) => Promise<unknown>,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': `${NDJSON}; charset=utf-8`,
    'cache-control': 'no-store',
    'x-request-id': request.id,
  });
  let shownAt = 0;
  const progress: ReportProgress = (done, total) => {
    const now = Date.now();
    if (now - shownAt < PROGRESS_EVERY_MS) return;
    shownAt = now;
    raw.write(`${JSON.stringify({ progress: { step, done, total: Math.max(done, total) } })}\n`);
  };
  let result: { status: number; body: unknown };
  try {
    result = { status: 200, body: await work(progress) };
  } catch (error) {
    const answer = errorAnswer(error, request);
    if (answer.status >= 500)
      new Logger('AdminProgress').error(`${request.method} ${request.url} [${request.id}] failed: ${String(error)}`);
    result = { status: answer.status, body: answer.body };
  }
  raw.end(`${JSON.stringify({ result })}\n`);
}
