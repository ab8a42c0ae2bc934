import { PartnerEventBodies } from '../../application/ports/partner-event-bodies.port';
import { ReadModelTables, SqlProjection } from '../projections/sql-projection';
import { balanceProjection } from './balance.projection';
import { ordersProjection } from './orders.projection';
import { partnersProjection } from './partners.projection';
import { keyScopesProjection } from './key-scopes.projection';
import { partnerSettingsProjection } from './partner-settings.projection';
import { PARTNER_EVENTS_TABLES, partnerEventsProjection } from './partner-events.projection';
import { operatorActionsProjection } from './operator-actions.projection';
import { orderDailyStatsProjection } from './order-daily-stats.projection';

/** The read models in the order applied: the events feed reads rm_orders, so it comes after the orders. */
const inOrder = <Model extends ReadModelTables>(partnerEvents: Model): readonly (Model | SqlProjection)[] => [
  partnersProjection,
  partnerSettingsProjection,
  balanceProjection,
  ordersProjection,
  partnerEvents,
  keyScopesProjection,
  operatorActionsProjection,
  orderDailyStatsProjection,
];

/** The read models the API answers from; the events feed writes each body with the webhooks' writer. */
export const readModelProjections = (bodies: PartnerEventBodies): readonly SqlProjection[] =>
  inOrder(partnerEventsProjection(bodies));

/** Their tables, for the migrations. */
export const READ_MODEL_TABLES: readonly ReadModelTables[] = inOrder(PARTNER_EVENTS_TABLES);
