import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { OPERATOR_ROLES, OperatorRole } from '../../../../domain/back-office/operator-role';
import { MAX_TOKEN_DAYS } from '../../../../domain/back-office/operator-token';

export class CreateOperatorDto {
  /** Checked in full by the operators' decider (letters, reserved names). */
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(64, { message: 'must be at most 64 characters' })
  name!: string;

  @IsIn(OPERATOR_ROLES, { message: `must be one of ${OPERATOR_ROLES.join(', ')}` })
  role!: OperatorRole;

  @IsOptional()
  @IsInt({ message: 'must be a whole number of days' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_TOKEN_DAYS, { message: `must be at most ${MAX_TOKEN_DAYS}` })
  expires_in_days?: number;
}

export class RevokeOperatorDto {
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(500, { message: 'must be at most 500 characters' })
  reason!: string;
}
