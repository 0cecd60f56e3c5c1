import type { ConversionQuote, ConversionRequest, CurrencyConversion } from '@gateway/acquirer';
import { ApiError, citedQuote, refusedQuote } from '@gateway/contract';
import { parseAmount, toDecimal } from '@gateway/domain';
import { newEventId, WrongExpectedRevisionError, type EventStore } from '@gateway/event-store';
import { amount, optionalString, requiredString, type Body } from '../transaction/body-fields';
import type { QuoteCheck, QuoteIds } from './quote-ids';

/** A quote as Payment Options Inquiry offers it: the terms and the id to take them up by. */
export type Offer = ConversionQuote & { readonly requestId: string };

/** A payment's request with the terms of the quote it takes up, and that quote's requestId. */
export interface Uptake {
  readonly body: Body;
  readonly requestId?: string;
}

const WHY: Record<Exclude<QuoteCheck, 'VALID'>, string> = {
  UNKNOWN:
    'No currency-conversion quote of that id was given for this merchant, card, amount and currency',
  EXPIRED: 'The currency-conversion quote has expired: a quote may be taken up for 30 minutes',
};

/** How a sent term compares with the quote's (numbers as numbers, times as instants). */
const SAME_AS_QUOTED = Object.entries<(sent: string, quote: ConversionQuote) => boolean>({
  exchangeRateTime: (sent, quote) => Date.parse(sent) === Date.parse(quote.exchangeRateTime),
  marginPercentage: (sent, quote) => Number(sent) === Number(quote.marginPercentage),
  payerAmount: (sent, quote) => parseAmount(sent) === quote.payerAmount,
  payerCurrency: (sent, quote) => sent === quote.payerCurrency,
  payerExchangeRate: (sent, quote) => Number(sent) === Number(quote.payerExchangeRate),
  provider: (sent, quote) => sent === quote.provider,
});

/** The stream that records which order took a quote up (one event: the first order). */
export function quoteStreamId(merchantId: string, requestId: string): string {
  return `quote:${merchantId}:${requestId}`;
}

/**
 * Currency-conversion quotes (behaviour notes, Payment Options Inquiry; docs/currency-conversion.md):
 * offered statelessly, judged against the payment citing them, bound to the first order taking
 * one up.
 */
export class QuoteUptake {
  constructor(
    private readonly conversion: CurrencyConversion,
    private readonly ids: QuoteIds,
    private readonly store: EventStore,
  ) {}

  /** The offer for a foreign card, with the requestId an AUTHORIZE or PAY cites to take it up. */
  offer(request: ConversionRequest, now: Date): Offer | undefined {
    const offer = this.conversion.quote(request);
    if (!offer) return undefined;
    const { merchantId, amount, currency } = request;
    return { ...offer, requestId: this.ids.issue({ merchantId, amount, currency, offer }, now) };
  }

  /**
   * An AUTHORIZE or PAY citing a quote, judged against its own merchant, card, amount and
   * currency (the card number is in `body` for this call only): a quote of other terms, a
   * tampered or unknown id, or an expired quote is INVALID on the requestId. Taken up (uptake
   * ACCEPTED), the terms sent must be the quote's, and the request gets all of them, so that the
   * transaction records and shows them. Pure: nothing is looked up or stored.
   */
  judge(merchantId: string, body: Body, now: Date): Uptake {
    const requestId = citedQuote(body);
    if (requestId === undefined) return { body };
    const cardNumber = optionalString(body, 'sourceOfFunds.provided.card.number');
    const terms = {
      merchantId,
      amount: amount(body, 'order.amount'),
      currency: requiredString(body, 'order.currency'),
    };
    const offer = cardNumber && this.conversion.quote({ ...terms, cardNumber });
    const check = offer ? this.ids.check(requestId, { ...terms, offer }, now) : 'UNKNOWN';
    if (!offer || check !== 'VALID')
      throw ApiError.fromFieldError(refusedQuote(requestId, WHY[check as 'UNKNOWN']));
    const sent = body.currencyConversion as Body;
    if (sent.uptake !== 'ACCEPTED') return { body };
    for (const [field, same] of SAME_AS_QUOTED)
      if (typeof sent[field] === 'string' && !same(sent[field], offer))
        throw ApiError.invalid(
          `Value is invalid. It is not the quote's`,
          `currencyConversion.${field}`,
        );
    const quoted = {
      exchangeRateTime: offer.exchangeRateTime,
      marginPercentage: offer.marginPercentage,
      payerAmount: String(toDecimal(offer.payerAmount)),
      payerCurrency: offer.payerCurrency,
      payerExchangeRate: offer.payerExchangeRate,
      provider: offer.provider,
    };
    return { body: { ...body, currencyConversion: { ...sent, ...quoted } }, requestId };
  }

  /**
   * Binds a quote to the order taking it up (behaviour notes: one order): the first order's
   * event creates the quote's stream (expected: no stream), so of two orders at once exactly one
   * wins; the same order again (a retry after a lost attempt) may, another order is INVALID.
   */
  async bind(merchantId: string, requestId: string, orderId: string, now: Date): Promise<void> {
    const streamId = quoteStreamId(merchantId, requestId);
    const taken = { orderId, time: now.toISOString() };
    try {
      await this.store.appendToStream(
        streamId,
        [{ eventId: newEventId(), type: 'QuoteTakenUp', data: taken, metadata: {} }],
        'no_stream',
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      const [first] = await this.store.readStream(streamId);
      if ((first.data as { orderId?: string }).orderId !== orderId)
        throw ApiError.fromFieldError(
          refusedQuote(requestId, 'The currency-conversion quote was taken up by another order'),
        );
    }
  }
}
