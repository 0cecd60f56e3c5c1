/**
 * The spec's error body for a request refused as INVALID, naming `field`, for `toEqual`: its
 * explanation matching the pattern when one is given, any string otherwise.
 */
export function invalidRequest(field: string, explanation?: RegExp) {
  return {
    result: 'ERROR',
    error: {
      cause: 'INVALID_REQUEST',
      explanation: explanation ? expect.stringMatching(explanation) : expect.any(String),
      field,
      validationType: 'INVALID',
    },
  };
}

/** A 400 with the spec's error object, INVALID on `field`. */
export function expectRefused(
  answer: { status: number; body: unknown },
  field: string,
  explanation?: RegExp,
) {
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual(invalidRequest(field, explanation));
}
