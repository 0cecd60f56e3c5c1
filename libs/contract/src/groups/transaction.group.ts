import type { Fields } from '../model/field';

/** Every transaction field a request may carry; operations pick and mark what they require. */
export const transactionFields = {
  amount: { kind: 'decimal', description: 'Amount of the transaction' },
  currency: { kind: 'alpha3Upper', description: 'Currency of the transaction, ISO 4217' },
  frequency: {
    kind: 'enum',
    values: ['INSTALLMENT', 'RECURRING', 'SINGLE'],
    description: 'Frequency of the payment',
  },
  merchantNote: {
    kind: 'string',
    min: 1,
    max: 250,
    description: "The merchant's note on the transaction",
  },
  reference: {
    kind: 'string',
    min: 1,
    max: 40,
    description: "The merchant's reference for the transaction",
  },
  source: {
    kind: 'enum',
    values: [
      'CALL_CENTRE',
      'CARD_PRESENT',
      'INTERNET',
      'MAIL_ORDER',
      'MOTO',
      'TELEPHONE_ORDER',
      'VOICE_RESPONSE',
    ],
    description: 'How the transaction was initiated',
  },
  targetTransactionId: {
    kind: 'string',
    min: 1,
    max: 40,
    description: 'The {transactionid} of the target transaction',
  },
  taxAmount: { kind: 'decimal', description: 'Tax amount of the transaction' },
} satisfies Fields;
