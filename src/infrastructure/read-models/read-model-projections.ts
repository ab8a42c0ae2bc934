import { ReadModelTables, SqlProjection } from '../projections/sql-projection';
import { balanceProjection } from './balance.projection';
import { ordersProjection } from './orders.projection';
import { partnersProjection } from './partners.projection';
import { keyScopesProjection } from './key-scopes.projection';
import { partnerSettingsProjection } from './partner-settings.projection';
import { partnerEventsProjection } from './partner-events.projection';
import { operatorActionsProjection } from './operator-actions.projection';
import { orderDailyStatsProjection } from './order-daily-stats.projection';

/** The read models the API answers from, in the order applied. */
const READ_MODELS: readonly SqlProjection[] = [
  partnersProjection,
  partnerSettingsProjection,
  balanceProjection,
  ordersProjection,
  partnerEventsProjection,
  keyScopesProjection,
  operatorActionsProjection,
  orderDailyStatsProjection,
];

export const readModelProjections = (): readonly SqlProjection[] => READ_MODELS;

/** Their tables, for the migrations. */
export const READ_MODEL_TABLES: readonly ReadModelTables[] = READ_MODELS;
