import { SIMULATOR_CARD_TYPES, SIMULATOR_CURRENCIES } from '@gateway/acquirer';
import { API_OPERATIONS, browserPaymentProviders } from '@gateway/contract';
import { parseAmount, toDecimal } from '@gateway/domain';
import type { QuoteUptake } from '../currency-conversion/quote-uptake';
import { get } from '../transaction/body-fields';

type Json = Record<string, unknown>;

/** What every test merchant may use: the same for every inquiry, built once. */
const OPTIONS = {
  currencies: SIMULATOR_CURRENCIES.map((currency) => ({ currency })),
  paymentTypes: {
    browserPayment: browserPaymentProviders().map((type) => ({ type })),
    card: { cardTypes: SIMULATOR_CARD_TYPES.map((facts) => ({ ...facts })) },
  },
  supportedPaymentOperations: API_OPERATIONS.map((operation) => ({ operation })),
  transactionSource: 'INTERNET',
};

/**
 * The answer to a Payment Options Inquiry (behaviour notes): the merchant's options, and with a
 * card, an amount and a currency, the conversion offer when the card's currency differs.
 * `request` is the validated body with the payment session's fields beneath it.
 */
export function paymentOptions(
  merchantId: string,
  request: Json,
  quotes: QuoteUptake,
  now: Date,
): Json {
  const cardNumber = get(request, 'sourceOfFunds.provided.card.number');
  const amount = get(request, 'order.amount');
  const currency = get(request, 'order.currency');
  const quote =
    cardNumber !== undefined && amount !== undefined && currency !== undefined
      ? quotes.offer(
          {
            merchantId,
            cardNumber: String(cardNumber),
            amount: parseAmount(String(amount))!,
            currency: String(currency),
          },
          now,
        )
      : undefined;
  const correlationId = request.correlationId;
  return {
    ...(correlationId !== undefined ? { correlationId } : {}),
    currencies: OPTIONS.currencies,
    ...(quote
      ? {
          currencyConversion: {
            exchangeRateTime: quote.exchangeRateTime,
            marginPercentage: Number(quote.marginPercentage),
            payerAmount: toDecimal(quote.payerAmount),
            payerCurrency: quote.payerCurrency,
            payerExchangeRate: Number(quote.payerExchangeRate),
            provider: quote.provider,
            requestId: quote.requestId,
          },
        }
      : {}),
    merchant: merchantId,
    paymentTypes: OPTIONS.paymentTypes,
    result: 'SUCCESS',
    supportedPaymentOperations: OPTIONS.supportedPaymentOperations,
    transactionSource: OPTIONS.transactionSource,
  };
}
