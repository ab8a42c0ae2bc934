import { createHash } from 'node:crypto';
import { READ_MODEL_TABLES } from '../../../../src/infrastructure/read-models/read-model-projections';
import { SCHEMA_MIGRATIONS } from '../../../../src/infrastructure/schema/schema-migrations';
import { checksumOf } from '../../../../src/infrastructure/sql/schema-history';

const short = (hex: string): string => hex.slice(0, 16);

/**
 * A migration that shipped is never edited (databases that applied it would differ from new
 * ones, and the service refuses to start on them); a read model's tables change only together
 * with its schema version (which rebuilds it on deployment). When one of these fails: undo the
 * edit and add a migration, or raise the projection's `schemaVersion` and pin the new text here.
 */
describe('the schema pins', () => {
  it('keeps every shipped migration as it was', () => {
    expect(
      SCHEMA_MIGRATIONS.map((migration) => `${migration.version} ${migration.name} ${short(checksumOf(migration))}`),
    ).toEqual([
      '1 baseline 4a14fc61162663f8',
      '2 projection-schema-versions d9f919ed6d1b3e7e',
      '3 access-fences-and-retention dd69675e0c520725',
      '4 key-refusals a725d3b28f942fb8',
      '5 wallet-snapshots 5fd45af253df2d73',
      '6 bill-fetch-provider-ref 587249d93a6717bc',
      '7 webhook-daily-stats a63232d9d3fac9a2',
      '8 key-records 536ff6e1450904de',
      '9 event-stream-leases 579e5fa770ae90e4',
      '10 wallet-snapshot-seals 264209136e6015d5',
      '11 correlation-index-outside-orders c59e5590e849e630',
      '12 back-office-actions cdd23b88b4aca810',
      '13 reconciliation-runs c1dc2e75f3e0bd75',
      '14 rate-limit-buckets ab178b3be7933760',
      '15 idempotency-expiry-ranges 0c2cc4dadcb5860b',
      '16 stream-revision-key 3ea03104c59d4659',
      '17 rate-limit-buckets-in-place 109b24597c167547',
      '18 event-ids-per-stream b4d384e6e825b1fb',
      '19 event-ids-outside-orders 7829642e39be5ffe',
      '20 one-debit-per-order af007b0833a357f1',
    ]);
  });

  it('changes no read model table without a new schema version', () => {
    const pins = READ_MODEL_TABLES.map(
      (projection) =>
        `${projection.name} v${projection.schemaVersion} ${short(createHash('sha256').update(projection.schema.sql).digest('hex'))}`,
    );
    expect(pins).toEqual([
      // v2: a restricted key's terms in the key's own row (rm_api_keys), who created it, why it was revoked.
      'partners v2 b9897a1d13a33817',
      'partner-settings v1 58ddeaf11fc0f55c',
      'balances v1 3bd48bc34b1f02ca',
      // answer_after_outcome came with a new event type (no earlier row needs it), added in place.
      // v3: the reference index holds only orders with a reference (decision 0164).
      'orders v3 2191bcc86c506f5a',
      // v2: unique by order and event id instead of event id alone (decision 0153).
      // v3: the event's facts instead of its body, written when the feed is read (decision 0163).
      'partner-events v4 4e68edb8f0d1f861',
      'key-scopes v1 2799bfbff18ffa3a',
      'operator-actions v1 6098c6389b5e630d',
      'order-daily-stats v2 0cd7b0302debdc49',
    ]);
  });
});
