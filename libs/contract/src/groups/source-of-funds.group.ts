import { group, pick, required } from '../model/compose';
import type { Fields, LeafField } from '../model/field';
import { contactFields } from './customer.group';
import { sessionId } from './general.group';

const expiryFields = {
  month: {
    kind: 'digits',
    min: 1,
    max: 2,
    range: { min: 1, max: 12 },
    description: 'Expiry month, 1 to 12',
  },
  year: { kind: 'digits', min: 2, max: 2, description: 'Expiry year: 2000 plus this value' },
} satisfies Fields;

const cardFields = {
  expiry: group('Card expiry', expiryFields),
  holder: group('Cardholder as printed on the card', pick(contactFields, 'firstName', 'lastName')),
  number: { kind: 'digits', min: 9, max: 19, sensitive: true, description: 'Card number' },
  securityCode: {
    kind: 'digits',
    min: 3,
    max: 4,
    sensitive: true,
    description: 'Card security code',
  },
} satisfies Fields;

export const card = group('Card details', cardFields);

/** Verify version 16: card details, when sent, include the expiry month and year. */
export const cardV16 = group('Card details', {
  ...cardFields,
  expiry: required(
    group('Card expiry', {
      month: required(expiryFields.month),
      year: required(expiryFields.year),
    }),
  ),
});

const giftCard = group('Gift card', {
  localBrand: { kind: 'string', min: 1, max: 50, description: 'Local brand of the gift card' },
  number: { kind: 'digits', min: 9, max: 19, sensitive: true, description: 'Gift card number' },
  pin: { kind: 'digits', min: 4, max: 8, sensitive: true, description: 'Gift card PIN' },
});

/** Every ACH field is required when the ach group is sent. */
const ach = group('Automated Clearing House (direct debit) account', {
  accountType: {
    kind: 'enum',
    values: ['CONSUMER_CHECKING', 'CONSUMER_SAVINGS', 'CORPORATE_CHECKING'],
    required: true,
    description: 'Kind of bank account',
  },
  bankAccountHolder: {
    kind: 'string',
    min: 1,
    max: 28,
    required: true,
    description: 'Name of the account holder',
  },
  bankAccountNumber: {
    kind: 'string',
    min: 1,
    max: 17,
    pattern: '^[0-9A-Za-z /-]*$',
    format: "made of the characters 0-9 a-z A-Z, space, '-' and '/'",
    required: true,
    sensitive: true,
    description: 'Bank account number',
  },
  routingNumber: {
    kind: 'digits',
    min: 9,
    max: 9,
    required: true,
    description: 'Routing transit number',
  },
  secCode: {
    kind: 'enum',
    values: ['PPD', 'TEL', 'WEB'],
    required: true,
    description: 'Standard Entry Class code',
  },
});

const providerA = group('Browser payment provider A account', {
  accountEmail: contactFields.email,
  accountHolder: { kind: 'string', min: 1, max: 255, description: 'Name of the account holder' },
});

/** Provider B is a German bank transfer: the bank identifier must be collected from the payer. */
const providerB = group('Bank transfer provider B', {
  bankIdentifier: {
    kind: 'digits',
    min: 8,
    max: 8,
    required: true,
    description: 'German bank identifier',
  },
});

const providerC = group('Bank transfer provider C', {
  bankAccountHolder: {
    kind: 'string',
    min: 1,
    max: 255,
    description: 'Name of the account holder',
  },
  bankAccountNumber: {
    kind: 'string',
    min: 1,
    max: 30,
    sensitive: true,
    description: 'Bank account number',
  },
  bankIdentifier: { kind: 'string', min: 1, max: 30, description: 'Bank identifier' },
  bic: { kind: 'string', min: 1, max: 50, description: 'Bank identifier code' },
  country: { kind: 'alpha3Upper', description: 'Country of the bank, ISO 3166 alpha-3' },
  iban: {
    kind: 'string',
    min: 1,
    max: 50,
    sensitive: true,
    description: 'International bank account number',
  },
});

const sourceOfFundsType: LeafField = {
  kind: 'enum',
  values: [
    'ACH',
    'PROVIDER_D',
    'CARD',
    'GIFT_CARD',
    'PROVIDER_B',
    'PROVIDER_A',
    'PROVIDER_C',
    'PROVIDER_E',
  ],
  description: 'Kind of payment instrument',
};

const token: LeafField = {
  kind: 'alphanumeric',
  min: 1,
  max: 40,
  description: 'Card token standing for the card details',
};

const providedFields = { ach, card, giftCard, providerA, providerB, providerC } satisfies Fields;

/** Authorize, Pay, Refund (standalone), Verify 29, Initiate Authentication. */
export const sourceOfFunds = group('The payment instrument', {
  provided: group('Payment details supplied in the request', providedFields),
  token,
  type: sourceOfFundsType,
});

/** Verify version 16: top-level source of funds, with a session alternative. */
export const sourceOfFundsV16 = required(
  group('The payment instrument', {
    provided: group('Payment details supplied in the request', {
      ...providedFields,
      card: cardV16,
    }),
    session: sessionId,
    token,
    type: sourceOfFundsType,
  }),
);

/** Void takes card details only. */
export const voidSourceOfFunds = group('The payment instrument', {
  provided: group('Payment details supplied in the request', { card }),
});

/**
 * Initiate Browser Payment: a provider, chosen by type. The spec's list of the subset is cut after
 * PROVIDER_A; the providers C and E, which other operations name, complete it.
 */
export const browserPaymentSourceOfFunds = required(
  group('The browser payment provider', {
    provided: group(
      'Payment details supplied in the request',
      pick(providedFields, 'providerA', 'providerB', 'providerC'),
    ),
    type: {
      kind: 'enum',
      values: ['PROVIDER_D', 'PROVIDER_B', 'PROVIDER_A', 'PROVIDER_C', 'PROVIDER_E'],
      required: true,
      description: 'Provider',
    },
  }),
);
