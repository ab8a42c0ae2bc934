export { createPartnerClient } from './client';
export { isDryRun } from './dry-run';
export type { ErrorBody, ErrorCode, PartnerClient, PartnerClientOptions, Schemas } from './client';
export { parseSignatureHeader, verifyWebhookSignature, WEBHOOK_TOLERANCE_SECONDS } from './webhook-signature';
export type { VerifyWebhookOptions, WebhookVerdict } from './webhook-signature';
export type { components, operations, paths } from './schema';
