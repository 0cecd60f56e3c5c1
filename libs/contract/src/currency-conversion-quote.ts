import type { FieldError } from './api-error';
import { invalidValue } from './engine/explain';

/** The operations that may take a currency-conversion quote up (behaviour notes). */
const TAKE_QUOTES = new Set(['AUTHORIZE', 'PAY']);

/**
 * Behaviour notes (Payment Options Inquiry): an AUTHORIZE or PAY naming a quote of Payment Options
 * Inquiry (`currencyConversion.requestId`) settles in the payer's currency at the quoted rate, and
 * an unknown or expired one is INVALID. Taking a quote up needs its issue time and its order
 * recorded, which comes with issue 15; until then no quote is one an order can use, so a requestId
 * is refused as an unknown one is, never accepted and ignored. The sent fields alone decide it:
 * it is judged before anything is looked up, and nothing is recorded.
 */
export function unusableQuote(body: Readonly<Record<string, unknown>>): FieldError | undefined {
  if (!TAKE_QUOTES.has(body.apiOperation as string)) return undefined;
  const conversion = body.currencyConversion;
  const requestId =
    typeof conversion === 'object' && conversion !== null
      ? (conversion as Record<string, unknown>).requestId
      : undefined;
  if (requestId === undefined || requestId === null) return undefined;
  return {
    field: 'currencyConversion.requestId',
    validationType: 'INVALID',
    explanation: invalidValue(
      requestId,
      false,
      'No currency-conversion quote of that id can be used: taking up a quote is not offered yet',
    ),
  };
}
