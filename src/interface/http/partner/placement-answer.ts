import type { FastifyReply } from 'fastify';
import { PlacementAnswer } from '../../../application/orders/order-placement';

/** The stored body is sent as it is, so a replay is byte-for-byte the first answer. */
export function sendPlacement(reply: FastifyReply, placed: PlacementAnswer): string {
  void reply.header('content-type', 'application/json; charset=utf-8');
  if (placed.replayed) void reply.header('Idempotent-Replay', 'true');
  return placed.body;
}
