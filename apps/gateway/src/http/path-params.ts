import { ApiError, findCardNumberIn } from '@gateway/contract';

export interface OrderPath {
  readonly apiVersion: number;
  readonly orderId: string;
}

/**
 * The path's version and ids, checked against the spec's path parameter rules. Versions outside
 * 1-100 are rejected (behaviour notes, API versions).
 */
export function parseOrderPath(params: { version?: string; orderId?: string }): OrderPath {
  return {
    apiVersion: parseApiVersion(params.version),
    orderId: idParam(params.orderId, 'order.id'),
  };
}

export function parseApiVersion(text: string | undefined): number {
  const version = text ?? '';
  if (!/^\d{1,3}$/.test(version) || Number(version) < 1 || Number(version) > 100) {
    throw ApiError.invalid(
      `Value '${version.slice(0, 20)}' is invalid. The API version must be a whole number from 1 to 100`,
      'version',
    );
  }
  return Number(version);
}

/** A merchant-chosen id of the path: 1-40 characters, and no card number (it is stored and shown). */
export function idParam(value: string | undefined, field: string): string {
  const id = value ?? '';
  if (id.length < 1 || id.length > 40) {
    throw ApiError.invalid(
      `Value '${id.slice(0, 50)}' is invalid. Length is ${id.length} characters, but must be between 1 and 40`,
      field,
    );
  }
  refuseCardNumber(id, field);
  return id;
}

/** An id from the path or a header that holds a card number is refused, naming `field`. */
export function refuseCardNumber(text: string, field: string): void {
  const refusal = findCardNumberIn(text, field);
  if (refusal) throw ApiError.fromFieldError(refusal);
}
