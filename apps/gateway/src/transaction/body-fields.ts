import { ApiError } from '@gateway/contract';
import { parseAmount, type Thousandths } from '@gateway/domain';

/** A validated request body: plain JSON, values as the merchant sent them. */
export type Body = Record<string, unknown>;

/** Reading fields of a validated body by their dotted path, with the spec's errors when absent. */
export function get(body: Body, path: string): unknown {
  let value: unknown = body;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Body)[key];
  }
  return value;
}

export function requiredString(body: Body, path: string): string {
  const value = get(body, path);
  if (typeof value !== 'string' || value === '')
    throw ApiError.invalid(`Field '${path}' is required`, path, 'MISSING');
  return value;
}

export function optionalString(body: Body, path: string): string | undefined {
  const value = get(body, path);
  return typeof value === 'string' ? value : undefined;
}

export function amount(body: Body, path: string): Thousandths {
  const text = requiredString(body, path);
  const value = parseAmount(text);
  if (value === undefined || value < 0) {
    throw ApiError.invalid(
      `Value '${text}' is invalid. An amount has digits and at most 3 decimals`,
      path,
    );
  }
  return value;
}
