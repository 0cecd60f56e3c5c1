import { convertAmount } from '../../../domain/src/money';
import type {
  ConversionQuote,
  ConversionRequest,
  CurrencyConversion,
} from '../currency-conversion.port';

/**
 * Behaviour notes, Payment Options Inquiry: two of the simulator's cards are foreign, at fixed
 * published rates per USD with a 3 % margin; every other card is domestic.
 */
const CARD_CURRENCY: Readonly<Record<string, string>> = {
  '4012000033330026': 'EUR',
  '4508750015741019': 'GBP',
};

/** Units of each currency per USD, in ten-thousandths (0.92 EUR, 0.79 GBP). */
const PER_USD: Readonly<Record<string, bigint>> = { USD: 10_000n, EUR: 9_200n, GBP: 7_900n };
const MARGIN_PERCENT = 3n;
/** Decided here: the rates are fixed, so they carry one publication time. */
const RATES_PUBLISHED_AT = '2026-01-01T00:00:00.000Z';
/** The rate is quoted to 6 decimals; the payer's amount to the cent (all three have 2 decimals). */
const RATE_SCALE = 1_000_000n;

/** The currencies the simulator publishes rates for: those it settles in. */
export const SIMULATOR_CURRENCIES: readonly string[] = Object.keys(PER_USD);

const halfUp = (numerator: bigint, denominator: bigint): bigint =>
  (numerator * 2n + denominator) / (denominator * 2n);

/** "0.947600" → "0.9476"; at least one decimal. */
function decimalText(value: bigint, scale: bigint): string {
  const digits = String(scale).length - 1;
  const fraction = String(value % scale)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return `${value / scale}.${fraction || '0'}`;
}

/**
 * The simulator's quotes: deterministic and stateless, so every node quotes the same and nothing
 * is stored; a payment taking a quote up gets the same terms quoted again, to compare.
 */
export class SimulatedCurrencyConversion implements CurrencyConversion {
  quote({ cardNumber, amount, currency }: ConversionRequest): ConversionQuote | undefined {
    const payerCurrency = CARD_CURRENCY[cardNumber];
    const payerPerUsd = PER_USD[payerCurrency];
    const orderPerUsd = PER_USD[currency];
    if (!payerPerUsd || !orderPerUsd || payerCurrency === currency) return undefined;
    const rate = halfUp(payerPerUsd * (100n + MARGIN_PERCENT) * RATE_SCALE, orderPerUsd * 100n);
    const payerExchangeRate = decimalText(rate, RATE_SCALE);
    return {
      provider: 'DCC_PROVIDER_A',
      payerCurrency,
      payerAmount: convertAmount(amount, payerExchangeRate),
      payerExchangeRate,
      marginPercentage: String(MARGIN_PERCENT),
      exchangeRateTime: RATES_PUBLISHED_AT,
    };
  }
}
