/** Payment instruments the end-to-end suites pay with (behaviour notes' test cards). */

/** The behaviour notes' test card numbers (one of 15 digits). */
export const TEST_CARDS = [
  '5123450000000008',
  '2223000000000007',
  '5111111111111118',
  '2223000000000023',
  '4508750015741019',
  '4012000033330026',
  '371881634498004',
];

/** The behaviour notes' 3-D Secure test cards: challenge, frictionless, unavailable. */
export const THREE_DS_CARDS = [
  '4440000009900010',
  '371881733404002',
  '5123456789012346',
  '5555555555000018',
  '4440000042200014',
  '371881887105009',
  '5500005555555559',
  '4440000042200022',
  '5506900140100503',
  '5123459999998221',
];

/** sourceOfFunds.provided.ach: every field of the group is required. */
export const ACH_ACCOUNT = {
  accountType: 'CONSUMER_CHECKING',
  bankAccountHolder: 'Pat Payer',
  bankAccountNumber: '000123456789',
  routingNumber: '021000021',
  secCode: 'WEB',
};

/** sourceOfFunds.provided.providerC: a bank transfer with account number and IBAN. */
export const PROVIDER_C_ACCOUNT = {
  bankAccountHolder: 'Kim Payer',
  bankAccountNumber: '5301234567',
  bankIdentifier: 'COBADEFF',
  bic: 'COBADEFFXXX',
  country: 'DEU',
  iban: 'DE89370400440532013000',
};

/** A Save Card (POST …/token) body for `number`; `extra` adds top-level fields. */
export const saveCardBody = (
  number: string,
  extra: Record<string, unknown> = {},
  expiry = { month: '1', year: '39' },
) => ({
  sourceOfFunds: { type: 'CARD', provided: { card: { number, expiry } } },
  ...extra,
});
