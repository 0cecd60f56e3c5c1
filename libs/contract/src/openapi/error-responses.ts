import { ApiError, BASIC_CHALLENGE } from '../api-error';
import { ref, type JsonSchema } from './json-schema';

/**
 * The error answers of the behaviour notes ("HTTP and the error body"), with examples built by the
 * same ApiError factories the gateway throws, so an example cannot show a body the gateway would
 * not send.
 */

const example = (summary: string, error: ApiError) => ({ summary, value: error.body });

function errorAnswer(
  description: string,
  examples: Record<string, ReturnType<typeof example>>,
  headers?: JsonSchema,
): JsonSchema {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: ref('ErrorResponse'), examples } },
  };
}

const RETRY_AFTER: JsonSchema = {
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** Component name of the error answer of each status. */
export const ERROR_RESPONSES = {
  '400': 'InvalidRequest',
  '401': 'Unauthorized',
  '403': 'Rejected',
  '404': 'NotFound',
  '429': 'TooManyRequests',
  '500': 'ServerFailed',
  '503': 'ServerBusy',
} as const;
export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** The error answers, keyed by component name. */
export function errorResponses(): Record<string, JsonSchema> {
  const answers: Record<ErrorStatus, JsonSchema> = {
    '400': errorAnswer('The request does not conform: the first violation, in document order', {
      invalidValue: example(
        'A value breaks a rule',
        ApiError.invalid(
          "Value '12.3456' is invalid. It has 4 decimal places, but at most 3 are allowed (amounts are held in thousandths)",
          'order.amount',
        ),
      ),
      missingField: example(
        'A required field is absent',
        ApiError.invalid("Field 'order.currency' is required", 'order.currency', 'MISSING'),
      ),
      unknownField: example(
        'A field the operation does not take',
        ApiError.invalid(
          "Field 'order.colour' is not part of the AUTHORIZE request",
          'order.colour',
        ),
      ),
      notJson: example(
        'The body is not JSON',
        ApiError.invalid('The request body is not valid JSON'),
      ),
    }),
    '401': errorAnswer(
      'Bad or missing credentials, or too many refused passwords: then, until the lockout ends, even the right password is refused and Retry-After says when to try again',
      { unauthorized: example('Any authentication failure', ApiError.unauthorized()) },
      {
        'WWW-Authenticate': {
          description: 'Always: the Basic challenge',
          schema: { type: 'string', enum: [BASIC_CHALLENGE] },
        },
        'Retry-After': {
          description: 'During a lockout: seconds until a password will be checked again',
          schema: { type: 'integer', minimum: 1 },
        },
      },
    ),
    '403': errorAnswer('Refused for security reasons', {
      rejected: example('The merchant has no acquirer link', ApiError.rejected('NO_ACQUIRER_LINK')),
      unmask: example(
        'UNMASK without certificate authentication',
        ApiError.rejected('UNMASK_NEEDS_CERTIFICATE'),
      ),
    }),
    '404': errorAnswer('Unknown path, order or transaction', {
      notFound: example('No such order', ApiError.notFound("Order 'order-1' was not found")),
    }),
    '429': errorAnswer(
      "The merchant's request rate limit is spent: retry after the delay given",
      {
        rateLimited: example(
          'Over the rate limit',
          ApiError.tooManyRequests(
            'The request rate limit of 50 per second for this merchant is exceeded. Retry after 1 second',
          ),
        ),
      },
      RETRY_AFTER,
    ),
    '500': errorAnswer('Internal failure; the support code finds the log entry', {
      failed: example(
        'Never a stack trace',
        ApiError.failed('7f0c4b1e-2d3a-4c5b-9e8f-0a1b2c3d4e5f'),
      ),
    }),
    '503': errorAnswer(
      'Overloaded: retry after the delay given',
      { busy: example('Retry later', ApiError.busy('The gateway is busy. Retry after 1 second')) },
      RETRY_AFTER,
    ),
  };
  return Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => [
      ERROR_RESPONSES[status as ErrorStatus],
      answer,
    ]),
  );
}
