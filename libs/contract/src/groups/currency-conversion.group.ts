import { group } from '../model/compose';

/** Dynamic currency conversion; only the initial transaction of an order uses it (the application ignores it later). */
export const currencyConversion = group(
  'Dynamic currency conversion offered to the payer',
  {
    exchangeRateTime: { kind: 'dateTime', description: 'When the exchange rate was quoted' },
    marginPercentage: {
      kind: 'string',
      min: 1,
      max: 8,
      description: 'Margin applied to the exchange rate, percent',
    },
    payerAmount: {
      kind: 'decimal',
      description: 'Amount in the payer currency; required if the payer accepted',
    },
    payerCurrency: {
      kind: 'alpha3Upper',
      description:
        'Payer currency, ISO 4217; differs from the transaction currency; required if the payer accepted',
    },
    payerExchangeRate: {
      kind: 'string',
      min: 1,
      max: 19,
      pattern: '^[0-9]+([.][0-9]+)?$',
      format: 'a decimal number',
      description: 'Exchange rate offered to the payer',
    },
    provider: {
      kind: 'enum',
      values: ['DCC_PROVIDER_A', 'DCC_PROVIDER_B'],
      description: 'Currency conversion provider',
    },
    providerReceipt: { kind: 'string', min: 1, max: 100, description: "The provider's receipt" },
    requestId: {
      kind: 'string',
      min: 1,
      max: 100,
      description:
        'As returned by the payment options inquiry; with uptake ACCEPTED, AUTHORIZE and PAY settle at its terms (for 30 minutes and one order; else INVALID)',
    },
    uptake: {
      kind: 'enum',
      values: ['ACCEPTED', 'DECLINED', 'NOT_AVAILABLE', 'NOT_REQUIRED'],
      description: "The payer's choice; NOT_REQUIRED by default",
    },
  },
  [
    { check: 'requiredWhen', field: 'payerAmount', when: { field: 'uptake', equals: 'ACCEPTED' } },
    {
      check: 'requiredWhen',
      field: 'payerCurrency',
      when: { field: 'uptake', equals: 'ACCEPTED' },
    },
  ],
);
