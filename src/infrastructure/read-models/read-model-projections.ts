import { SqlProjection } from '../projections/sql-projection';
import { balanceProjection } from './balance.projection';
import { ordersProjection } from './orders.projection';
import { partnersProjection } from './partners.projection';
import { keyScopesProjection } from './key-scopes.projection';
import { partnerSettingsProjection } from './partner-settings.projection';
import { partnerEventsProjection } from './partner-events.projection';
import { operatorActionsProjection } from './operator-actions.projection';
import { orderDailyStatsProjection } from './order-daily-stats.projection';

/** The read models the API answers from, in the order applied: the events feed reads rm_orders, so it comes after the orders. */
export const READ_MODEL_PROJECTIONS: readonly SqlProjection[] = [
  partnersProjection,
  partnerSettingsProjection,
  balanceProjection,
  ordersProjection,
  partnerEventsProjection,
  keyScopesProjection,
  operatorActionsProjection,
  orderDailyStatsProjection,
];
