/**
 * True for the answer of a dry run (`"validate_only": true` in the request): what the order would
 * be, with no order placed. `POST /topup` and `POST /pay-bill` answer either that or the order.
 */
export function isDryRun<Answer extends object>(answer: Answer): answer is Extract<Answer, { validate_only: true }> {
  return 'validate_only' in answer && answer.validate_only === true;
}
