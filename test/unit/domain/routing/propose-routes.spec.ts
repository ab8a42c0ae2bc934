import { OwnProduct, UpstreamProduct, proposeRoutes } from '../../../../src/domain/routing/propose-routes';

const own = (
  kind: 'operator' | 'biller',
  id: number,
  name: string,
  country: string,
  route: OwnProduct['route'] = null,
): OwnProduct => ({ kind, id, name, country, route });
const up = (kind: 'operator' | 'biller', id: string, name: string, country: string): UpstreamProduct => ({
  kind,
  id,
  name,
  country,
});

const UPSTREAM = [
  up('operator', '1201', 'Airtel India', 'IN'),
  up('operator', '1299', 'Airtel India Bundles', 'IN'),
  up('operator', '1405', 'Airtel Bangladesh', 'BD'),
  up('operator', '1402', 'Robi Axiata Bangladesh', 'BD'),
  up('biller', '301', 'BESCOM Postpaid', 'IN'),
  up('biller', '401', 'DESCO Prepaid', 'BD'),
  up('biller', '501', 'SP Group', 'SG'),
  up('biller', '601', 'Akash DTH', 'BD'),
  up('biller', '602', 'Akash Digital TV', 'BD'),
  up('biller', '603', 'Akash Digital TV', 'BD'),
];

describe('proposing routes from a provider catalog by country and name', () => {
  it('matches a name once the country and generic words are dropped, preferring the exact fit', () => {
    const proposal = proposeRoutes(
      'reloadly',
      [own('operator', 101, 'Airtel', 'IN'), own('operator', 205, 'Airtel', 'BD')],
      UPSTREAM,
    );
    expect(proposal.proposed).toEqual([
      {
        kind: 'operator',
        id: 101,
        name: 'Airtel',
        country: 'IN',
        upstreamId: '1201',
        upstreamName: 'Airtel India',
        match: 'exact',
        current: null,
      },
      {
        kind: 'operator',
        id: 205,
        name: 'Airtel',
        country: 'BD',
        upstreamId: '1405',
        upstreamName: 'Airtel Bangladesh',
        match: 'exact',
        current: null,
      },
    ]);
  });

  it('takes a name contained in the other as a partial match, and a biller known by the acronym our catalog gives', () => {
    const proposal = proposeRoutes(
      'reloadly',
      [
        own('operator', 202, 'Robi', 'BD'),
        own('biller', 1005, 'Bangalore Electricity Supply Company (BESCOM)', 'IN'),
        own('biller', 3001, 'SP Group (electricity, water and gas)', 'SG'),
      ],
      UPSTREAM,
    );
    expect(proposal.proposed.map((route) => [route.id, route.upstreamId, route.match])).toEqual([
      [202, '1402', 'partial'],
      [1005, '301', 'partial'],
      [3001, '501', 'partial'],
    ]);
  });

  it('never matches across kinds or countries, and keeps prepaid apart from postpaid for billers', () => {
    const proposal = proposeRoutes(
      'reloadly',
      [
        own('biller', 2001, 'DESCO Postpaid', 'BD'),
        own('operator', 301, 'Airtel', 'SG'),
        own('biller', 9, 'Airtel', 'IN'),
      ],
      UPSTREAM,
    );
    expect(proposal.proposed).toEqual([]);
    expect(proposal.unmatched.map((entry) => entry.id)).toEqual([2001, 301, 9]);
  });

  it('leaves a tie between equally good fits to a person, listing the candidates', () => {
    const proposal = proposeRoutes('reloadly', [own('biller', 2024, 'Akash Digital TV', 'BD')], UPSTREAM);
    expect(proposal.proposed).toEqual([]);
    expect(proposal.ambiguous).toEqual([
      {
        kind: 'biller',
        id: 2024,
        name: 'Akash Digital TV',
        country: 'BD',
        candidates: [
          { upstreamId: '602', upstreamName: 'Akash Digital TV' },
          { upstreamId: '603', upstreamName: 'Akash Digital TV' },
        ],
      },
    ]);
  });

  it('does not take a product routed to another provider, and counts routes it would not change', () => {
    const proposal = proposeRoutes(
      'reloadly',
      [
        own('operator', 101, 'Airtel', 'IN', { provider: 'dtone', upstreamId: 'X' }),
        own('operator', 205, 'Airtel', 'BD', { provider: 'reloadly', upstreamId: '1405' }),
      ],
      UPSTREAM,
    );
    expect(proposal.routedElsewhere).toEqual([{ kind: 'operator', id: 101, name: 'Airtel', provider: 'dtone' }]);
    expect(proposal.unchanged).toBe(1);
    expect(proposal.proposed).toEqual([]);
  });

  it('proposes a change, with the current route, when the provider now lists the product under another id', () => {
    const proposal = proposeRoutes(
      'reloadly',
      [own('operator', 101, 'Airtel', 'IN', { provider: 'reloadly', upstreamId: '999' })],
      UPSTREAM,
    );
    expect(proposal.proposed).toEqual([
      expect.objectContaining({ id: 101, upstreamId: '1201', current: { provider: 'reloadly', upstreamId: '999' } }),
    ]);
  });

  it('proposes no entry the provider may not be routed to, says why, and proposes no lesser fit instead', () => {
    const upstream = [
      { ...up('biller', 'ADAN00000MUM01', 'Adani Electricity Mumbai Limited', 'IN'), notOffered: 'charges a fee' },
      up('biller', 'ADAN00000MUM02', 'Adani Electricity Mumbai Limited Prepaid', 'IN'),
    ];
    const proposal = proposeRoutes('setu', [own('biller', 1011, 'Adani Electricity Mumbai Limited', 'IN')], upstream);
    expect(proposal.proposed).toEqual([]);
    expect(proposal.notOffered).toEqual([
      {
        kind: 'biller',
        id: 1011,
        name: 'Adani Electricity Mumbai Limited',
        country: 'IN',
        upstreamId: 'ADAN00000MUM01',
        upstreamName: 'Adani Electricity Mumbai Limited',
        reason: 'charges a fee',
      },
    ]);
  });
});
