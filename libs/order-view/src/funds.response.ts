import { parseAmount, toDecimal } from '@gateway/domain';

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

/** giftCard.availableBalance: the balance the issuer reported after this transaction. */
export function renderGiftCard(giftCard: {
  availableBalance: { amount: number; currency: string };
}): Json {
  const { amount, currency } = giftCard.availableBalance;
  return { availableBalance: { amount: toDecimal(amount), currency } };
}
