import { requestHash } from '../../../../../src/interface/shared/requests/request-hash';

/** Stored Idempotency-Key bindings hold these hashes: the same request must hash the same in every release. */
describe('requestHash, what makes two requests the same', () => {
  it('keeps the hash a known request had when it was stored', () => {
    const body = { reference: 'é😀', phone: '+91 98765 43210', amount: '10.00' };
    expect(requestHash('placeTopup', body)).toBe('eea95e1362c6f576ae57fb6c349efb3b8b8751bad62a38f1f1e1cfa5bdd3ccd3');
  });

  it('reads a body the same whatever its key order, and leaves out undefined fields', () => {
    expect(requestHash('placeTopup', { a: 1, b: [{ d: 2, c: undefined }] })).toBe(
      requestHash('placeTopup', { b: [{ d: 2 }], a: 1 }),
    );
    expect(requestHash('placeTopup', { a: 1 })).not.toBe(requestHash('placeBill', { a: 1 }));
  });
});
