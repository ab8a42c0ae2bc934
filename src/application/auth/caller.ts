import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';

/** The partner and environment a request acts for, as established from its API key. */
export interface Caller {
  partnerId: string;
  environment: Environment;
  keyId: string;
  corridor: Corridor;
  currency: Currency;
  /** Correlates the request's events and log lines. */
  requestId: string;
}
