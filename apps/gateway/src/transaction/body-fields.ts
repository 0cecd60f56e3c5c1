import { ApiError } from '@gateway/contract';
import { parseAmount, type Thousandths } from '@gateway/domain';

/** A validated request body: plain JSON, values as the merchant sent them. */
export type Body = Record<string, unknown>;

/**
 * Each path split once (a request reads dozens of fields): the paths are the code's own, a few
 * hundred at most, so the cache stays small; past MAX_PATHS a path is split on every read.
 */
const KEYS_OF_PATH = new Map<string, readonly string[]>();
const MAX_PATHS = 1000;

function keysOf(path: string): readonly string[] {
  let keys = KEYS_OF_PATH.get(path);
  if (keys === undefined) {
    keys = path.split('.');
    if (KEYS_OF_PATH.size < MAX_PATHS) KEYS_OF_PATH.set(path, keys);
  }
  return keys;
}

/** Reading fields of a validated body by their dotted path, with the spec's errors when absent. */
export function get(body: Body, path: string): unknown {
  const keys = keysOf(path);
  let value: unknown = body;
  for (let i = 0; i < keys.length; i++) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Body)[keys[i]];
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
