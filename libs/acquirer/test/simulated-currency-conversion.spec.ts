import { SimulatedCurrencyConversion } from '@gateway/acquirer';

/** Behaviour notes, Payment Options Inquiry: fixed rates 0.92 EUR and 0.79 GBP per USD, 3 % margin. */
const conversion = new SimulatedCurrencyConversion();
const EUR_CARD = '4012000033330026';
const GBP_CARD = '4508750015741019';
const quote = (cardNumber: string, amount: number, currency: string, merchantId = 'TESTM') =>
  conversion.quote({ merchantId, cardNumber, amount, currency });

describe('the simulator quotes currency conversion for its two foreign cards', () => {
  it.each([
    // card, amount (thousandths), order currency → payer currency, rate, payer amount (thousandths)
    [EUR_CARD, 100_000, 'USD', 'EUR', '0.9476', 94_760],
    [GBP_CARD, 100_000, 'USD', 'GBP', '0.8137', 81_370],
    // Cross rates go through USD, margin included, rounded half up to 6 decimals.
    [EUR_CARD, 100_000, 'GBP', 'EUR', '1.199494', 119_950],
    [GBP_CARD, 100_000, 'EUR', 'GBP', '0.884457', 88_450],
    // The payer amount is rounded half up to the cent: 10.005 × 0.9476 = 9.480738.
    [EUR_CARD, 10_005, 'USD', 'EUR', '0.9476', 9_480],
    [GBP_CARD, 10, 'USD', 'GBP', '0.8137', 10],
  ])(
    '%s, %d thousandths of %s: %s at %s, %d',
    (card, amount, currency, payer, rate, payerAmount) => {
      expect(quote(card, amount, currency)).toEqual({
        provider: 'DCC_PROVIDER_A',
        payerCurrency: payer,
        payerAmount,
        payerExchangeRate: rate,
        marginPercentage: '3',
        exchangeRateTime: '2026-01-01T00:00:00.000Z',
      });
    },
  );

  it('offers nothing for a domestic card, an order in the card currency, or a currency without a rate', () => {
    expect(quote('5123450000000008', 100_000, 'USD')).toBeUndefined();
    expect(quote(EUR_CARD, 100_000, 'EUR')).toBeUndefined();
    expect(quote(GBP_CARD, 100_000, 'JPY')).toBeUndefined();
  });

  it('is deterministic: the same question gets the same terms', () => {
    expect(quote(EUR_CARD, 100_000, 'USD')).toEqual(quote(EUR_CARD, 100_000, 'USD'));
  });
});
