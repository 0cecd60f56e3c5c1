import type { Thousandths } from '../../domain/src/money';

/**
 * A dynamic currency conversion offer (spec, currencyConversion group), as quoted to the payer.
 * Its requestId is the gateway's (apps/gateway/src/currency-conversion/quote-ids.ts).
 */
export interface ConversionQuote {
  readonly provider: 'DCC_PROVIDER_A' | 'DCC_PROVIDER_B';
  readonly payerCurrency: string;
  readonly payerAmount: Thousandths;
  /** Payer currency per unit of the order currency, margin included: exact decimal text. */
  readonly payerExchangeRate: string;
  /** Percent, exact decimal text. */
  readonly marginPercentage: string;
  readonly exchangeRateTime: string;
}

export interface ConversionRequest {
  readonly merchantId: string;
  /** The full card number: in memory for this call only. */
  readonly cardNumber: string;
  readonly amount: Thousandths;
  readonly currency: string;
}

/** Who quotes currency conversion: undefined when the card is domestic or no rate is published. */
export interface CurrencyConversion {
  quote(request: ConversionRequest): ConversionQuote | undefined;
}
