import { PartnerScope } from '../../../src/application/ports/reaction.port';
import { settingsAtScheduling } from '../../../src/infrastructure/jobs/settings-at-scheduling';
import { partnerSettingsProjection } from '../../../src/infrastructure/read-models/partner-settings.projection';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { SqlExecutor } from '../../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';

const partner = (partnerId: string): PartnerScope => ({ partnerId, environment: 'sandbox' });
const [withBoth, thresholdOnly, noSettings, later] = ['ptr_both', 'ptr_threshold', 'ptr_none', 'ptr_later'].map(
  partner,
);

/** What the webhooks and the low-balance notice read of the partners' settings while scheduling a batch's jobs. */
describe('the settings the reactions see when they schedule', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('settings_at_scheduling');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
    await applySchema(db, [partnerSettingsProjection.schema]);
    await db.query(
      `INSERT INTO rm_partner_settings (partner_id, environment, settings, revision, updated_at)
       SELECT partner_id, 'sandbox', settings::jsonb, 0, now()
         FROM (VALUES ($1, $2), ($3, $4), ($5, $6)) AS s(partner_id, settings)`,
      [
        withBoth.partnerId,
        JSON.stringify({ webhookUrl: 'https://example.com/hooks', lowBalanceThreshold: '500.00' }),
        thresholdOnly.partnerId,
        JSON.stringify({ lowBalanceThreshold: '25.50' }),
        later.partnerId,
        JSON.stringify({ webhookUrl: 'https://example.com/later' }),
      ],
    );
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it("answers both questions about a batch's partners with one read of their settings", async () => {
    const statements: string[] = [];
    const counted: SqlExecutor = {
      query: (text, params) => {
        statements.push(text);
        return db.query(text, params);
      },
    };
    const settings = settingsAtScheduling(counted);
    const asked = [withBoth, thresholdOnly, noSettings];

    const webhookUrl = await settings.withWebhookUrl(asked);
    const threshold = await settings.lowBalanceThresholds([...asked].reverse());
    expect(asked.map(webhookUrl)).toEqual([true, false, false]);
    expect(asked.map(threshold)).toEqual(['500.00', '25.50', undefined]);
    expect(statements).toHaveLength(1);

    const laterUrl = await settings.withWebhookUrl([later, withBoth]);
    expect([laterUrl(later), laterUrl(withBoth)]).toEqual([true, true]);
    expect(statements).toHaveLength(2);
  });

  it('asks nothing of the database for no partners', async () => {
    const settings = settingsAtScheduling({
      query: () => Promise.reject(new Error('no statement expected')),
    });
    expect((await settings.withWebhookUrl([]))(withBoth)).toBe(false);
    expect((await settings.lowBalanceThresholds([]))(withBoth)).toBeUndefined();
  });
});
