import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PROVIDER_NAME, ProductKind, UPSTREAM_ID } from '../../../../domain/routing/route';

const PRODUCT_KINDS: ProductKind[] = ['operator', 'biller'];

export class SetRouteDto {
  @IsIn(PRODUCT_KINDS, { message: 'must be operator or biller' })
  kind!: ProductKind;

  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(2_147_483_647, { message: 'must be at most 2147483647' })
  id!: number;

  @IsString({ message: 'must be a string' })
  @Matches(PROVIDER_NAME, { message: 'must be lower-case letters, digits and -, 2 to 32 characters' })
  provider!: string;

  @IsString({ message: 'must be a string' })
  @Matches(UPSTREAM_ID, { message: "must be the provider's id: letters, digits and _ . : -, at most 64 characters" })
  upstream_id!: string;
}

export class RemoveRouteDto {
  @IsIn(PRODUCT_KINDS, { message: 'must be operator or biller' })
  kind!: ProductKind;

  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(2_147_483_647, { message: 'must be at most 2147483647' })
  id!: number;

  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(500, { message: 'must be at most 500 characters' })
  reason!: string;
}

export class SyncProviderDto {
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  apply?: boolean;
}

export class ReconcileDayDto {
  @IsString({ message: 'must be a string' })
  @Matches(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: 'must be a calendar day as YYYY-MM-DD' })
  date!: string;

  /** Absent: the one configured provider that has a report. */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(PROVIDER_NAME, { message: 'must be lower-case letters, digits and -, 2 to 32 characters' })
  provider?: string;
}
