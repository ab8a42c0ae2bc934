import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { CORRIDORS, Corridor } from '../../../../domain/corridor/corridor';
import { ENVIRONMENTS, Environment } from '../../../../domain/shared/environment';

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

export class EnvironmentDto {
  @IsIn(ENVIRONMENTS, { message: 'must be sandbox or live' })
  environment!: Environment;
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

export class ResolveOrderDto {
  @IsIn(['success', 'failed'], { message: 'must be success or failed' })
  outcome!: 'success' | 'failed';

  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(500, { message: 'must be at most 500 characters' })
  reason!: string;
}
