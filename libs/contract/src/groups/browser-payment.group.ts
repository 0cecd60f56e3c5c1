import { group, required } from '../model/compose';

export const browserPayment = required(
  group('Browser payment', {
    operation: {
      kind: 'enum',
      values: ['AUTHORIZE', 'PAY'],
      required: true,
      description: 'AUTHORIZE creates an authorization (captured later), PAY a payment',
    },
    providerA: group('Options for provider A', {
      displayShippingAddress: {
        kind: 'boolean',
        description: 'Show the shipping address to the payer (default true)',
      },
      overrideShippingAddress: {
        kind: 'boolean',
        description: 'Let the payer change the shipping address (default true)',
      },
      paymentConfirmation: {
        kind: 'enum',
        values: ['CONFIRM_AT_MERCHANT', 'CONFIRM_AT_PROVIDER'],
        description: 'Where the payer confirms; required for provider A',
      },
    }),
    returnUrl: {
      kind: 'httpsUrl',
      required: true,
      description: "Where the provider returns the payer's browser, whatever the outcome",
    },
  }),
);
