import { SqlProjection } from '../projections/sql-projection';
import { balanceProjection } from './balance.projection';
import { ordersProjection } from './orders.projection';
import { partnersProjection } from './partners.projection';
import { keyScopesProjection } from './key-scopes.projection';
import { partnerSettingsProjection } from './partner-settings.projection';

/** The read models the API answers from; the API's read-your-writes barrier waits for these. */
export const READ_MODEL_PROJECTIONS: readonly SqlProjection[] = [
  partnersProjection,
  partnerSettingsProjection,
  balanceProjection,
  ordersProjection,
  keyScopesProjection,
];
