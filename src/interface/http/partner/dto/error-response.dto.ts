import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ErrorCode } from '../../../../application/shared/service-error';
import { ERRORS_DOC_PATH } from '../../openapi/errors-doc';

/** The Errors table's codes plus invalid_state, provider_unavailable, service_unavailable and access_change_pending. */
export const PARTNER_ERROR_CODES = [
  'validation_failed',
  'idempotency_key_required',
  'invalid_api_key',
  'insufficient_balance',
  'kyc_required',
  'ip_not_allowed',
  'scope_forbidden',
  'key_cap_exceeded',
  'operator_not_found_or_wrong_corridor',
  'not_found',
  'idempotency_conflict',
  'invalid_state',
  'amount_out_of_range',
  'rate_limit_exceeded',
  'internal_error',
  'provider_unavailable',
  'service_unavailable',
  'access_change_pending',
] as const satisfies readonly ErrorCode[];

@ApiSchema({
  name: 'Error',
  description:
    `Every refusal and failure carries this body. The error reference (${ERRORS_DOC_PATH}) gives each code's status,` +
    ' cause, what to do, and whether retrying is safe.',
})
export class ErrorResponseDto {
  @ApiProperty({ type: 'string', enum: [...PARTNER_ERROR_CODES], example: 'validation_failed' })
  error!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'What went wrong; starts with the offending field when there is one',
    example: 'amount: must be greater than zero',
  })
  detail!: string | null;
}
