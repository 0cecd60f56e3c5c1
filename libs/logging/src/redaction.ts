/**
 * Keys whose values never reach the log, wherever they sit in a logged object (up to three levels
 * deep, or along the request paths that carry them). This is a second line of defence: request
 * lines carry chosen scalar fields only, and errors are logged by name and message, never with a
 * body or headers.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'password',
  'apiPassword',
  'secret',
  'notificationSecret',
  'sessionKey',
  'key',
  'token',
  'securityCode',
  'pin',
  'bankAccountNumber',
  'iban',
  'accountNumber',
] as const;

/**
 * Payment instrument fields, at their depth under sourceOfFunds.provided.<card|ach|providerC…>,
 * in a request body or one nested under a key (body, request…). `number` only there: elsewhere it
 * is a count or an amount.
 */
const INSTRUMENT_KEYS = ['number', 'securityCode', 'pin', 'bankAccountNumber', 'iban'] as const;

export const REDACTED_PATHS: readonly string[] = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  ...INSTRUMENT_KEYS.flatMap((key) => [
    `card.${key}`,
    `*.card.${key}`,
    `sourceOfFunds.provided.*.${key}`,
    `*.sourceOfFunds.provided.*.${key}`,
  ]),
];
