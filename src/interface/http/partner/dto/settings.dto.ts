import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';

@ApiSchema({ name: 'SettingsChange', description: 'Only the fields given are changed.' })
export class UpdateSettingsDto {
  @ApiPropertyOptional({
    type: 'string',
    maxLength: 2048,
    nullable: true,
    description: 'Where outcomes are announced; https to a public address for live; null or "" removes it',
    example: 'https://example.com/hooks/recharge',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'must be a string or null' })
  @MaxLength(2048, { message: 'must be at most 2048 characters' })
  webhook_url?: string | null;

  @ApiPropertyOptional({
    description: 'IPv4/IPv6 addresses or CIDR ranges allowed to use this key; empty allows all',
    type: [String],
    maxItems: 50,
    example: ['203.0.113.0/24', '2001:db8::/32'],
  })
  @IsOptional()
  @IsArray({ message: 'must be an array of strings' })
  @ArrayMaxSize(50, { message: 'at most 50 entries' })
  @IsString({ each: true, message: 'must be an array of strings' })
  ip_allowlist?: string[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100_000,
    description:
      'Requests per minute for the keys of this environment together, at most rate_limit_ceiling_per_minute (see GET /v1/partner/settings); above it: 400 validation_failed',
    example: 60,
  })
  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(100_000, { message: 'must be at most 100000' })
  rate_limit_per_minute?: number;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    pattern: '^\\d{1,15}(\\.\\d+)?$',
    description:
      "A decimal amount in the wallet's currency: when a debit takes the key's environment's available balance " +
      'below it, a wallet.low_balance event is sent (webhook and events feed), once per crossing; null turns it off',
    example: '500.00',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'must be a decimal string or null' })
  @MaxLength(32, { message: 'must be at most 32 characters' })
  low_balance_threshold?: string | null;
}
