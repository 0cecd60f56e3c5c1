import type { CscGatewayCode, Verification } from '../acquirer.port';

/** Behaviour notes' CSC table: [code, code on a 15-digit card, result, CVV2 result letter]. */
const CSC_RESULTS: ReadonlyArray<readonly [string, string, CscGatewayCode, string]> = [
  ['100', '1000', 'MATCH', 'M'],
  ['101', '1010', 'NOT_PROCESSED', 'P'],
  ['102', '1020', 'NO_MATCH', 'N'],
];

/**
 * Decided here: any other code (including a 3-digit code on a 15-digit card) is a code the issuer
 * does not hold for the card: NO_MATCH.
 */
export function cscResult(
  cardNumber: string,
  securityCode: string | undefined,
): Verification<CscGatewayCode> {
  if (securityCode === undefined || securityCode === '') return { gatewayCode: 'NOT_PRESENT' };
  const column = cardNumber.length === 15 ? 1 : 0;
  const row = CSC_RESULTS.find((r) => r[column] === securityCode);
  return row
    ? { gatewayCode: row[2], acquirerCode: row[3] }
    : { gatewayCode: 'NO_MATCH', acquirerCode: 'N' };
}
