import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { DestinationStream, Logger } from 'pino';
import proxyaddr from 'proxy-addr';
import { currentTraceId, tracingOn } from '../tracing/tracing';
import { serviceMetrics } from './service-metrics';

const REQUEST_ID = /^[\w.:-]{8,128}$/;

/** `X-Request-Id` from a trusted proxy, else a new UUID, so a caller cannot put chosen text into the logs. */
export function requestIdGenerator(trustedProxies: readonly string[]): (request: IncomingMessage) => string {
  const trusted = proxyaddr.compile([...trustedProxies]);
  return (request) => {
    const given = request.headers['x-request-id'];
    const peer = request.socket.remoteAddress;
    return typeof given === 'string' && REQUEST_ID.test(given) && peer !== undefined && trusted(peer, 0)
      ? given
      : randomUUID();
  };
}

interface WithCaller {
  caller?: { partnerId?: string };
}

const TRACE_ID = Symbol('traceId');
type WithTraceId = FastifyRequest & { [TRACE_ID]?: string };

/** Every answer carries `X-Request-Id`, is counted and timed, and is logged without headers, query or body. */
export function observeRequests(fastify: FastifyInstance, logLevel: string, destination?: DestinationStream): void {
  const options = { level: logLevel, base: { service: 'partner-service', pid: process.pid } };
  const accessLog: Logger | null =
    logLevel === 'silent' ? null : destination ? pino(options, destination) : pino(options);
  // The request's span is active while its first hook runs; its trace id is kept for the log line.
  if (tracingOn())
    fastify.addHook('onRequest', async (request: WithTraceId) => {
      request[TRACE_ID] = currentTraceId();
    });
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', request.id);
  });
  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    const seconds = reply.elapsedTime / 1000;
    serviceMetrics.httpRequests.inc(labels);
    serviceMetrics.httpDuration.observe(labels, seconds);
    accessLog?.info(
      {
        request_id: request.id,
        method: request.method,
        route,
        status: reply.statusCode,
        latency_ms: Math.round(reply.elapsedTime * 10) / 10,
        partner_id: (request as FastifyRequest & WithCaller).caller?.partnerId ?? null,
        ...(tracingOn() ? { trace_id: (request as WithTraceId)[TRACE_ID] ?? null } : {}),
      },
      'request',
    );
  });
}
