/**
 * Fails unless a sent JSON body is, value for value, what JSON.stringify would have sent for what
 * the application produced: no property dropped, none added, no value coerced (101 vs "101", null vs "").
 * Property order is not compared: a schema serializer writes the schema's order.
 */
export function expectSentAsProduced(body: string, produced: unknown): void {
  expect(JSON.parse(body)).toStrictEqual(JSON.parse(JSON.stringify(produced)));
}
