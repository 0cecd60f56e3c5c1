import type { AvsGatewayCode, Verification } from '../acquirer.port';

/**
 * Behaviour notes' AVS table. The acquirer code is the street's initial, which is the usual AVS
 * response letter for that result (A, X, K/L/O for the name checks, …).
 */
const AVS_BY_STREET: ReadonlyArray<readonly [string, AvsGatewayCode]> = [
  ['Alpha St', 'ADDRESS_MATCH'],
  ['Gamma St', 'NOT_VERIFIED'],
  ['November St', 'NO_MATCH'],
  ['Romeo St', 'SERVICE_NOT_AVAILABLE_RETRY'],
  ['Sierra St', 'SERVICE_NOT_SUPPORTED'],
  ['Uniform St', 'NOT_AVAILABLE'],
  ['Whiskey St', 'ZIP_MATCH'],
  ['X-ray St', 'ADDRESS_ZIP_MATCH'],
  ['Kilo St', 'NAME_MATCH'],
  ['Oscar St', 'NAME_ADDRESS_MATCH'],
  ['Lima St', 'NAME_ZIP_MATCH'],
  ['Zero St', 'NOT_REQUESTED'],
];

/** The name as whole words, any case and spacing: "12 alpha  ST" matches, "Alpha Stone" does not. */
const ROWS = AVS_BY_STREET.map(([name, gatewayCode]) => ({
  pattern: new RegExp(`(?<![a-z0-9])${name.replace(' ', '\\s+')}(?![a-z0-9])`, 'i'),
  gatewayCode,
  acquirerCode: name[0],
}));

/**
 * Decided here: a street selects the first row whose name it contains (see ROWS). A street that
 * matches no row is an address the issuer does not hold: NO_MATCH. No street, or Zero St:
 * NOT_REQUESTED, with no acquirer code as nothing was checked.
 */
export function avsResult(street: string | undefined): Verification<AvsGatewayCode> {
  if (!street?.trim()) return { gatewayCode: 'NOT_REQUESTED' };
  const row = ROWS.find(({ pattern }) => pattern.test(street));
  if (!row) return { gatewayCode: 'NO_MATCH', acquirerCode: 'N' };
  if (row.gatewayCode === 'NOT_REQUESTED') return { gatewayCode: row.gatewayCode };
  return { gatewayCode: row.gatewayCode, acquirerCode: row.acquirerCode };
}
