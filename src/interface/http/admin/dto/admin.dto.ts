import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { CORRIDORS, Corridor } from '../../../../domain/corridor/corridor';
import { ENVIRONMENTS, Environment } from '../../../../domain/shared/environment';
import { CreateScopedKeyDto } from '../../partner/dto/scoped-key.dto';

export class CreatePartnerDto {
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  name!: string;

  @IsIn(Object.keys(CORRIDORS), { message: 'must be one of IN, BD, SG' })
  corridor!: Corridor;
}

export class KycDto {
  @IsIn(['approved', 'suspended'], { message: 'must be approved or suspended' })
  status!: 'approved' | 'suspended';
}

class EnvironmentDto {
  @IsIn(ENVIRONMENTS, { message: 'must be sandbox or live' })
  environment!: Environment;
}

export class RegenerateKeyDto extends EnvironmentDto {
  /** Absent: false. The environment's restricted keys are revoked with the main key unless this is true. */
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'must be true or false' })
  keep_restricted_keys?: boolean;
}

export class WalletCreditDto extends EnvironmentDto {
  @IsString({ message: 'must be a decimal string such as "2500.00"' })
  @Matches(/^\d{1,15}(\.\d{1,4})?$/, { message: 'must be a decimal string such as "2500.00"' })
  amount!: string;

  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  reference!: string;
}

export class ConfigurePartnerDto extends EnvironmentDto {
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'must be a string or null' })
  @MaxLength(2048, { message: 'must be at most 2048 characters' })
  webhook_url?: string | null;

  @IsOptional()
  @IsArray({ message: 'must be an array of strings' })
  @ArrayMaxSize(50, { message: 'at most 50 entries' })
  @IsString({ each: true, message: 'must be an array of strings' })
  ip_allowlist?: string[];

  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(100_000, { message: 'must be at most 100000' })
  rate_limit?: number;

  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  rotate_webhook_secret?: boolean;
}

export class ResolveOrderDto {
  @IsIn(['success', 'failed'], { message: 'must be success or failed' })
  outcome!: 'success' | 'failed';

  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(500, { message: 'must be at most 500 characters' })
  reason!: string;

  /** Absent: false. Resolve even though reconciliation found the provider reporting the opposite outcome. */
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'must be true or false' })
  against_reconciliation?: boolean;

  /** Absent: false. An owner resolves against what the provider answers when asked at this moment. */
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'must be true or false' })
  against_provider?: boolean;
}

export class AdminCreateScopedKeyDto extends CreateScopedKeyDto {
  @IsIn(ENVIRONMENTS, { message: 'must be sandbox or live' })
  environment!: Environment;
}
