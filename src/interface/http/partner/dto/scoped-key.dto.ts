import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { ScopedKeyRequest } from '../../../../application/keys/create-scoped-key';
import {
  CreatedScopedKeyResource,
  KeyCreatorResource,
  MainKeyResource,
  RevokedKeyResource,
  ScopedKeyListResource,
  ScopedKeyResource,
} from '../../../shared/key-resources';
import { ClaimedLiveKeyResource } from '../claimed-live-key-resource';
import { KEY_SCOPES, KeyScope, MAX_KEY_LABEL_LENGTH } from '../../../../domain/partner/scoped-key';
import { ResponseOf } from '../../openapi/response-of';

const CAP_TEXT = /^\d{1,15}(\.\d{1,4})?$/;

@ApiSchema({ name: 'ScopedKeyRequest', description: 'A restricted API key for an agent or a member of your staff.' })
export class CreateScopedKeyDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: MAX_KEY_LABEL_LENGTH,
    description: 'What the key is for, shown in the key list',
    example: 'support agent',
  })
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(MAX_KEY_LABEL_LENGTH, { message: `must be at most ${MAX_KEY_LABEL_LENGTH} characters` })
  label!: string;

  @ApiProperty({
    type: 'string',
    enum: [...KEY_SCOPES],
    description:
      'read_only: reads only (balance, catalog, bill-info, transactions); transact: may also place orders, within its caps',
  })
  @IsIn(KEY_SCOPES, { message: 'must be read_only or transact' })
  scope!: KeyScope;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    pattern: CAP_TEXT.source,
    description:
      'transact keys: the largest amount of one order, a decimal string in the wallet currency; absent or null: no per-order cap',
    example: '500.00',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'must be a decimal string such as "500.00"' })
  @Matches(CAP_TEXT, { message: 'must be a decimal string such as "500.00"' })
  per_order_max?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    pattern: CAP_TEXT.source,
    description:
      'transact keys: the most the key may spend in any 24 hours (rolling; refunded orders give their amount back), a decimal string in the wallet currency; absent or null: no daily cap',
    example: '2000.00',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'must be a decimal string such as "2000.00"' })
  @Matches(CAP_TEXT, { message: 'must be a decimal string such as "2000.00"' })
  daily_max?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the key stops working (it is refused with invalid_api_key from then on); absent or null: never',
    example: '2026-12-31T00:00:00Z',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' })
  expires_at?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: 100_000,
    description:
      "Requests per minute of the key's own, at most your environment's limit: every key of the environment shares that limit, and this one also stops at its own. Absent or null: the environment's limit only",
    example: 10,
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: 'must be an integer number of requests per minute' })
  @Min(1, { message: 'must be at least 1' })
  @Max(100_000, { message: 'must be at most 100000' })
  rate_limit?: number | null;
}

export const scopedKeyRequest = (dto: CreateScopedKeyDto): ScopedKeyRequest => ({
  label: dto.label,
  scope: dto.scope,
  perOrderMax: dto.per_order_max,
  dailyMax: dto.daily_max,
  expiresAt: dto.expires_at,
  rateLimitPerMinute: dto.rate_limit,
});

@ApiSchema({ name: 'KeyCreator', description: 'Who created a key: the actor recorded on its creation event.' })
class KeyCreatorDto implements ResponseOf<KeyCreatorResource, KeyCreatorDto> {
  @ApiProperty({
    type: 'string',
    enum: ['partner_key', 'operator', 'system'],
    description: 'partner_key: your main key (its key_id in `id`); operator: the back office',
  })
  type!: string;
  @ApiProperty({ type: 'string' }) id!: string;
}

@ApiSchema({
  name: 'ScopedKey',
  description: 'A restricted key and its usage; never the key itself, except `api_key` once, on creation.',
})
/** One DTO for both: a key in the lists, and the key just created, with `api_key`. */
export class ScopedKeyResponseDto implements ResponseOf<
  ScopedKeyResource | CreatedScopedKeyResource,
  ScopedKeyResponseDto
> {
  @ApiProperty({ type: 'string' }) key_id!: string;
  @ApiProperty({ type: 'string' }) label!: string;
  @ApiProperty({ type: 'string', enum: ['live', 'sandbox'] }) environment!: string;
  @ApiProperty({ type: 'string', enum: [...KEY_SCOPES] }) scope!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'decimal, wallet currency' }) per_order_max!:
    string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'decimal, wallet currency' }) daily_max!: string | null;
  @ApiProperty({ type: 'string', description: 'the wallet currency the caps and spend are in' }) currency!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "requests per minute of the key's own; null: the environment's limit only",
  })
  rate_limit!: number | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) expires_at!: string | null;
  @ApiProperty({ type: 'string', enum: ['active', 'expired', 'revoked'] }) status!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: KeyCreatorDto, nullable: true, description: 'who created the key' })
  created_by!: KeyCreatorDto | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'when a request with the key was last admitted (to within a few seconds); null: never used',
  })
  last_used_at!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) revoked_at!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'why it was revoked: `revoked` (by you or the back office) or `main_key_regenerated` (with the main key of its environment)',
  })
  revoke_reason!: string | null;
  @ApiProperty({ type: 'string', description: 'placed with this key in the last 24 hours, refunded orders excluded' })
  spent_last_24h!: string;
  @ApiProperty({
    type: 'integer',
    description: 'requests of this key refused in the last 24 hours for its scope or caps',
  })
  refusals_last_24h!: number;
  @ApiPropertyOptional({
    type: 'string',
    description: 'the key, on creation only: it is not stored and cannot be shown again',
  })
  api_key?: string;
}

@ApiSchema({
  name: 'MainKey',
  description: "The environment's main key: never the key, only who issued it and its use.",
})
class MainKeyDto implements ResponseOf<MainKeyResource, MainKeyDto> {
  @ApiProperty({ type: 'string' }) key_id!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: KeyCreatorDto, nullable: true }) created_by!: KeyCreatorDto | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) last_used_at!: string | null;
}

@ApiSchema({ name: 'ScopedKeyList' })
export class ScopedKeyListDto implements ResponseOf<ScopedKeyListResource, ScopedKeyListDto> {
  @ApiProperty({ type: 'string', enum: ['live', 'sandbox'] }) environment!: string;
  @ApiProperty({ type: 'string' }) currency!: string;
  @ApiProperty({ type: MainKeyDto, nullable: true }) main_key!: MainKeyDto | null;
  @ApiProperty({ type: [ScopedKeyResponseDto] }) keys!: ScopedKeyResponseDto[];
}

@ApiSchema({ name: 'RevokedKey' })
export class RevokedKeyDto implements ResponseOf<RevokedKeyResource, RevokedKeyDto> {
  @ApiProperty({ type: 'string' }) key_id!: string;
  @ApiProperty({ type: 'boolean', enum: [true] }) revoked!: true;
}

@ApiSchema({ name: 'ClaimedLiveKey', description: 'Your first live key: shown this once, never stored.' })
export class ClaimedLiveKeyDto implements ResponseOf<ClaimedLiveKeyResource, ClaimedLiveKeyDto> {
  @ApiProperty({ type: 'string' }) partner_id!: string;
  @ApiProperty({ type: 'string', enum: ['live'] }) environment!: 'live';
  @ApiProperty({ type: 'string' }) key_id!: string;
  @ApiProperty({ type: 'string', description: 'the key: it is not stored and cannot be shown again' })
  api_key!: string;
}
