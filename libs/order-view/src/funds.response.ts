import {
  convertAmount,
  parseAmount,
  toDecimal,
  type Order,
  type TransactionState,
} from '@gateway/domain';

type Json = Record<string, unknown>;

/**
 * currencyConversion as responses show it (spec, currency conversion group): numbers instead of
 * the request's strings, uptake always present (NOT_REQUIRED by default), the quote's requestId
 * left out. The payer amount is money, so it goes through thousandths like every amount.
 */
export function renderCurrencyConversion(sent: Json): Json {
  const {
    requestId: _requestId,
    payerAmount,
    marginPercentage,
    payerExchangeRate,
    uptake,
    ...rest
  } = sent;
  return {
    ...rest,
    ...(typeof marginPercentage === 'string' ? { marginPercentage: Number(marginPercentage) } : {}),
    ...(typeof payerAmount === 'string'
      ? { payerAmount: toDecimal(parseAmount(payerAmount) ?? 0) }
      : {}),
    ...(typeof payerExchangeRate === 'string'
      ? { payerExchangeRate: Number(payerExchangeRate) }
      : {}),
    uptake: uptake ?? 'NOT_REQUIRED',
  };
}

/**
 * A refund of an order whose payer took a conversion up (uptake ACCEPTED, on its initial
 * transaction: spec): the payer is refunded in their currency at the accepted rate, so the
 * refund shows that amount (docs/currency-conversion.md). Undefined for any other order.
 */
export function refundConversion(order: Order, refund: TransactionState): Json | undefined {
  const taken = order.transactions[0]?.echo.currencyConversion as Json | undefined;
  const rate = taken?.payerExchangeRate;
  if (taken?.uptake !== 'ACCEPTED' || typeof rate !== 'string') return undefined;
  const { payerCurrency, provider } = taken;
  return {
    payerAmount: toDecimal(convertAmount(refund.amount, rate)),
    payerCurrency,
    payerExchangeRate: Number(rate),
    ...(provider !== undefined ? { provider } : {}),
    uptake: 'ACCEPTED',
  };
}

/** giftCard.availableBalance: the balance the issuer reported after this transaction. */
export function renderGiftCard(giftCard: {
  availableBalance: { amount: number; currency: string };
}): Json {
  const { amount, currency } = giftCard.availableBalance;
  return { availableBalance: { amount: toDecimal(amount), currency } };
}
