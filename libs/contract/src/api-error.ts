import { redactCardLikeRuns } from '@gateway/domain';
import { redactPath } from './engine/explain';

/**
 * The spec's error object and the HTTP status each cause maps to (behaviour notes, "HTTP and the error body").
 * Every refusal the gateway answers is one of these; nothing else reaches a client.
 */
export type ErrorCause = 'INVALID_REQUEST' | 'REQUEST_REJECTED' | 'SERVER_BUSY' | 'SERVER_FAILED';
export type ValidationType = 'MISSING' | 'INVALID';

/** A field-level validation failure: the first one in document order. */
export interface FieldError {
  /** Full dotted path as the merchant sent it, indexes in brackets: `order.item[2].unitPrice`. */
  readonly field: string;
  readonly validationType: ValidationType;
  /** Names the value and the rule: `Value 'ABC' is invalid. Length is 42 characters, but must be less than 41`. */
  readonly explanation: string;
}

export interface ErrorBody {
  readonly result: 'ERROR';
  readonly error: {
    readonly cause: ErrorCause;
    readonly explanation?: string;
    readonly field?: string;
    readonly validationType?: ValidationType;
    readonly supportCode?: string;
  };
}

/** Sent with every 401 (HTTP requires a challenge): some clients send credentials only after one. */
export const BASIC_CHALLENGE = 'Basic realm="gateway"';

export class ApiError extends Error {
  readonly body: ErrorBody;

  /** Whatever an error quotes (an id, a header, a parameter), no card number leaves in it. */
  constructor(
    readonly httpStatus: number,
    body: ErrorBody,
  ) {
    const { explanation, field } = body.error;
    const error = {
      ...body.error,
      ...(explanation !== undefined ? { explanation: redactCardLikeRuns(explanation) } : {}),
      ...(field !== undefined ? { field: redactPath(field) } : {}),
    };
    super(error.explanation ?? error.cause);
    this.name = 'ApiError';
    this.body = { ...body, error };
  }

  /** 400: the request does not conform; names the field when one is at fault. */
  static invalid(
    explanation: string,
    field?: string,
    validationType: ValidationType = 'INVALID',
  ): ApiError {
    const error = field
      ? { cause: 'INVALID_REQUEST' as const, explanation, field, validationType }
      : { cause: 'INVALID_REQUEST' as const, explanation };
    return new ApiError(400, { result: 'ERROR', error });
  }

  /** From a validation result: field-level when the error names a field, body-level otherwise. */
  static fromFieldError(e: {
    explanation: string;
    field?: string;
    validationType?: ValidationType;
  }): ApiError {
    return ApiError.invalid(e.explanation, e.field, e.validationType);
  }

  static unauthorized(): ApiError {
    return new ApiError(401, {
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
    });
  }

  static notFound(explanation: string): ApiError {
    return new ApiError(404, { result: 'ERROR', error: { cause: 'INVALID_REQUEST', explanation } });
  }

  static rejected(supportCode: string): ApiError {
    return new ApiError(403, {
      result: 'ERROR',
      error: { cause: 'REQUEST_REJECTED', supportCode },
    });
  }

  static busy(explanation: string): ApiError {
    return new ApiError(503, { result: 'ERROR', error: { cause: 'SERVER_BUSY', explanation } });
  }

  /** 429: the merchant's request rate limit is spent; the spec's nearest cause is SERVER_BUSY. */
  static tooManyRequests(explanation: string): ApiError {
    return new ApiError(429, { result: 'ERROR', error: { cause: 'SERVER_BUSY', explanation } });
  }

  /** 500 without detail: the support code lets an operator find the log line, nothing else leaks. */
  static failed(supportCode: string): ApiError {
    return new ApiError(500, { result: 'ERROR', error: { cause: 'SERVER_FAILED', supportCode } });
  }
}
