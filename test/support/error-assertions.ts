import { HttpAnswer } from './test-service';

/**
 * Asserts a refusal: the expected status and code, the interface's Error body
 * (`error` and `detail`, nothing hidden behind a 5xx), and, when given, a detail
 * that starts with the name of the offending field ("amount: …" or "amount must …").
 */
export function expectRefusal(answer: HttpAnswer, status: number, code: string, field?: string): void {
  const seen = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect({ status: answer.status, seen }).toEqual({ status, seen: expect.any(String) });
  expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(answer.body).toEqual(expect.objectContaining({ error: code, detail: expect.any(String) }));
  if (field !== undefined) {
    const detail: string = answer.body.detail;
    const namesField = detail.startsWith(`${field}:`) || detail.startsWith(`${field} `);
    expect({ namesField, detail }).toEqual({ namesField: true, detail });
  }
}
