import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { DELIVERY_STATES } from '../../../../application/ports/webhook.port';
import {
  WebhookAttemptResource,
  WebhookDeliveryListResource,
  WebhookDeliveryResource,
  WebhookResendResource,
} from '../../webhook-delivery-resources';
import { PartnerSettingsResource } from '../../../shared/settings-resources';
import { ResponseOf } from '../../openapi/response-of';
import { DATE_TIME, ENVIRONMENT } from './schema-formats';

@ApiSchema({ name: 'PartnerSettings', description: "The key's environment's webhook, IP allowlist and rate limit." })
export class PartnerSettingsDto implements ResponseOf<PartnerSettingsResource, PartnerSettingsDto> {
  @ApiProperty({ type: 'string', minLength: 1 })
  partner_id!: string;

  @ApiProperty(ENVIRONMENT)
  environment!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Where outcomes are posted; null when none is set' })
  webhook_url!: string | null;

  @ApiProperty({ type: 'boolean' })
  webhook_secret_set!: boolean;

  @ApiProperty({
    ...DATE_TIME,
    nullable: true,
    description: 'During a rotation: until when the previous secret also signs',
  })
  previous_webhook_secret_valid_until!: string | null;

  @ApiProperty({ type: 'string', isArray: true, description: 'IPv4/IPv6 CIDR ranges; empty allows every address' })
  ip_allowlist!: string[];

  @ApiProperty({ type: 'integer', minimum: 1 })
  rate_limit_per_minute!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      'The most rate_limit_per_minute may be set to: the ceiling we set for your keys of this environment (by default 600 live, 120 sandbox)',
  })
  rate_limit_ceiling_per_minute!: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "Below this available balance (in the wallet's currency) a wallet.low_balance event is sent; null: off",
  })
  low_balance_threshold!: string | null;

  @ApiPropertyOptional({
    type: 'string',
    pattern: '^whsec_',
    description: 'Only in the answer that created or rotated the secret: shown once, store it',
  })
  webhook_secret?: string;
}

@ApiSchema({ name: 'WebhookAttempt' })
class WebhookAttemptDto implements ResponseOf<WebhookAttemptResource, WebhookAttemptDto> {
  @ApiProperty({ type: 'integer', minimum: 1 })
  attempt!: number;

  @ApiProperty(DATE_TIME)
  attempted_at!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Where the attempt went: your URL at that moment; null when none was set',
  })
  url!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "Your endpoint's HTTP status; null when there was no answer",
  })
  status_code!: number | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  latency_ms!: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why the attempt failed; null on success' })
  error!: string | null;
}

@ApiSchema({ name: 'WebhookDelivery', description: 'One event on its way to your webhook, with every attempt.' })
export class WebhookDeliveryDto implements ResponseOf<WebhookDeliveryResource, WebhookDeliveryDto> {
  @ApiProperty({ type: 'string', minLength: 1 })
  delivery_id!: string;

  @ApiProperty({
    type: 'string',
    minLength: 1,
    description: 'The event_id your endpoint receives; equal to delivery_id',
  })
  event_id!: string;

  @ApiProperty({ type: 'string', enum: ['transaction.succeeded', 'transaction.failed', 'wallet.low_balance'] })
  event!: string;

  @ApiProperty({ type: 'string', minLength: 1 })
  order_id!: string;

  @ApiProperty(ENVIRONMENT)
  environment!: string;

  @ApiProperty({ type: 'string', description: 'Where the delivery was first addressed' })
  url!: string;

  @ApiProperty({ type: 'string', enum: [...DELIVERY_STATES] })
  state!: string;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(DATE_TIME)
  updated_at!: string;

  @ApiProperty({ type: () => WebhookAttemptDto, isArray: true })
  attempts!: WebhookAttemptDto[];
}

@ApiSchema({ name: 'WebhookDeliveryList', description: 'Your deliveries, newest first.' })
export class WebhookDeliveryListDto implements ResponseOf<WebhookDeliveryListResource, WebhookDeliveryListDto> {
  @ApiProperty({ type: 'integer', minimum: 0 })
  count!: number;

  @ApiProperty({ type: () => WebhookDeliveryDto, isArray: true })
  deliveries!: WebhookDeliveryDto[];
}

@ApiSchema({ name: 'WebhookResend', description: 'A re-send scheduled: one more attempt, now.' })
export class WebhookResendDto implements ResponseOf<WebhookResendResource, WebhookResendDto> {
  @ApiProperty({ type: 'string', minLength: 1 })
  delivery_id!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: "The attempt's number; it shows in the delivery's attempts once made",
  })
  scheduled_attempt!: number;
}
