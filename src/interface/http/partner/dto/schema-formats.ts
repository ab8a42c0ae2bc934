import { CORRIDORS } from '../../../../domain/corridor/corridor';
import { CURRENCIES } from '../../../../domain/money/currency';
import { ENVIRONMENTS } from '../../../../domain/shared/environment';

/** Shared shapes of the response schemas, so every resource states a value the same way. */

/** A money amount in the wallet's two minor digits, e.g. "1000.00". */
export const DECIMAL_AMOUNT = { type: 'string', pattern: '^[0-9]+\\.[0-9]{2}$', example: '900.00' } as const;
/** `amount_local` of an order: four decimal places, e.g. "100.0000". */
export const AMOUNT_LOCAL = { type: 'string', pattern: '^[0-9]+\\.[0-9]{4}$', example: '100.0000' } as const;
export const DATE_TIME = { type: 'string', format: 'date-time', example: '2026-01-15T09:30:00.000Z' } as const;
export const E164_PHONE = { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$', example: '+919876540001' } as const;
export const CURRENCY = { type: 'string', enum: Object.keys(CURRENCIES), example: 'INR' } as const;
export const CORRIDOR = { type: 'string', enum: Object.keys(CORRIDORS), example: 'IN' } as const;
export const ENVIRONMENT = { type: 'string', enum: [...ENVIRONMENTS], example: 'sandbox' } as const;
export const PUBLIC_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
export const ID = { type: 'integer', minimum: 1 } as const;
