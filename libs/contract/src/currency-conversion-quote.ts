import type { FieldError } from './api-error';
import { invalidValue } from './engine/explain';

/** The operations that may take a currency-conversion quote up (behaviour notes). */
const TAKE_QUOTES = new Set(['AUTHORIZE', 'PAY']);
const REQUEST_ID = 'currencyConversion.requestId';

/**
 * The quote of Payment Options Inquiry an AUTHORIZE or PAY cites (`currencyConversion.requestId`),
 * when it cites one: the gateway checks it against the payment's own terms (behaviour notes:
 * it settles in the payer's currency at the quoted rate; unknown or expired is INVALID).
 */
export function citedQuote(body: Readonly<Record<string, unknown>>): string | undefined {
  if (!TAKE_QUOTES.has(body.apiOperation as string)) return undefined;
  const conversion = body.currencyConversion;
  if (typeof conversion !== 'object' || conversion === null) return undefined;
  const requestId = (conversion as Record<string, unknown>).requestId;
  return typeof requestId === 'string' ? requestId : undefined;
}

/** A cited quote this payment cannot take up: INVALID on its requestId, saying why. */
export function refusedQuote(requestId: string, why: string): FieldError {
  return {
    field: REQUEST_ID,
    validationType: 'INVALID',
    explanation: invalidValue(requestId, false, why),
  };
}
