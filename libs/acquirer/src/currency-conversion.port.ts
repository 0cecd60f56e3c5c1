import type { Thousandths } from '../../domain/src/money';

/** A dynamic currency conversion offer (spec, currencyConversion group), as quoted to the payer. */
export interface ConversionQuote {
  /** What AUTHORIZE / PAY cite as currencyConversion.requestId to take the offer up. */
  readonly requestId: string;
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
