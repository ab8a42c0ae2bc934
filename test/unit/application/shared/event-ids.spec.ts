import fc from 'fast-check';
import { v5 as uuidv5 } from 'uuid';
import { deterministicEventId } from '../../../../src/application/shared/event-ids';

/** The ids already stored in every log were made by the `uuid` package: the same parts must give the same id forever. */
describe('deterministic event ids', () => {
  const NAMESPACE = '6f1c2d8e-4b7a-5c3e-9d10-2a6b8e4f7c21';

  it('are the version-5 UUIDs of the joined parts, as the uuid package makes them', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 4 }), (parts) => {
        expect(deterministicEventId(...parts)).toBe(uuidv5(parts.join('|'), NAMESPACE));
      }),
      { numRuns: 2_000 },
    );
  });

  it('keep the id of a known order outcome', () => {
    expect(deterministicEventId('ord_7c1e0c55-2f0a-4f56-9b1e-6d2f4a0b9c11', 'outcome')).toBe(
      'dcc62580-50c7-5732-88da-8195a15aa18c',
    );
    expect(deterministicEventId('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
