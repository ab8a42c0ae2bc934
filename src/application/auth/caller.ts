import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { KeyRestriction } from '../ports/read-models.port';

/** The partner and environment a request acts for, as established from its API key. */
export interface Caller {
  partnerId: string;
  environment: Environment;
  keyId: string;
  /** A restricted key's terms (scope, caps); null for the environment's main key. */
  restriction: KeyRestriction | null;
  corridor: Corridor;
  currency: Currency;
  /** Correlates the request's events and log lines. */
  requestId: string;
}
