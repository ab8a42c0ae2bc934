import { decodeFeedCursor, encodeFeedCursor } from '../../../../src/application/events-feed/feed-cursor';

describe('events feed cursor', () => {
  it('gives back the position it was made from', () => {
    const position = { commit: 9_223_372_036_854_775_807n, prepare: 42n };
    expect(decodeFeedCursor(encodeFeedCursor(position))).toEqual(position);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['not two numbers', Buffer.from('12').toString('base64url')],
    ['a negative number', Buffer.from('-1.2').toString('base64url')],
    ['beyond the database range', Buffer.from('9223372036854775808.1').toString('base64url')],
    ['another spelling of a position', Buffer.from('007.1').toString('base64url')],
    ['too long', 'A'.repeat(200)],
  ])('refuses a cursor that is %s', (_, cursor) => {
    expect(decodeFeedCursor(cursor)).toBeNull();
  });
});
