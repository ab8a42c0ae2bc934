import { requestHash } from '../../../../../src/interface/shared/requests/request-hash';

/** Stored Idempotency-Key bindings hold these hashes: the same request must hash the same in every release. */
describe('requestHash, what makes two requests the same', () => {
  it('keeps the hash a known request had when it was stored', () => {
    const body = { reference: 'é😀', phone: '+91 98765 43210', amount: '10.00' };
    expect(requestHash('placeTopup', body)).toBe('eea95e1362c6f576ae57fb6c349efb3b8b8751bad62a38f1f1e1cfa5bdd3ccd3');
  });

  it('keeps the hashes of nested bodies, arrays and bare values', () => {
    const hashes = [
      { phone: '+919810000001', amount: 10, operator_id: 101 },
      { z: [1, 'two', { b: null, a: true }], a: { y: 1.5, x: 'é😀"\\' }, skip: undefined, '': 0 },
      [undefined, 1, [], {}],
      'text',
      12.5,
      null,
    ].map((body) => requestHash('topup', body));
    expect(hashes).toEqual([
      '76747e2da49326ab66f4f9b2f04b93ff4e559bce20c7f63a4c594d5d0341ece8',
      '01e8bce116c1808d4a5f8845c51a79f13b2492d9299d99f0ad68b446765c150d',
      'c409739f2315e2ab6968ab22dbdfb66a928e8385aa8193b93041b91139d7ae28',
      '395febc84634af75678ee2f699cf3a03a88110f9eddf0fb931e91c3a6b245c6c',
      '1d5bb7fc3ee9477396c52f3854c7f8c8c0c6edf8886e2ba1b92624dad50a0c65',
      'a7914deb5abc92eaa1716425826cafcdda1e49122e0af75c2dea726c71c76121',
    ]);
  });

  it('reads a body the same whatever its key order, and leaves out undefined fields', () => {
    expect(requestHash('placeTopup', { a: 1, b: [{ d: 2, c: undefined }] })).toBe(
      requestHash('placeTopup', { b: [{ d: 2 }], a: 1 }),
    );
    expect(requestHash('placeTopup', { a: 1 })).not.toBe(requestHash('placeBill', { a: 1 }));
  });
});
