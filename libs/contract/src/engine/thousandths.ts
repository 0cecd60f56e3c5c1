/**
 * Exact decimal arithmetic for cross-field rules. Amounts are compared in integer thousandths as
 * BigInt: item quantities reach 16 digits, so quantity x price overflows safe integers.
 */
const DECIMAL = /^(-?)([0-9]+)(?:[.]([0-9]{1,3}))?$/;

/** `"10.5"` → `10500n`; undefined for anything that is not a request decimal with at most 3 decimals. */
export function parseThousandths(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const value = BigInt(m[2]) * 1000n + BigInt((m[3] ?? '').padEnd(3, '0'));
  return m[1] === '-' ? -value : value;
}

/** `12500n` → `"12.500"`. */
export function formatThousandths(value: bigint): string {
  const magnitude = value < 0n ? -value : value;
  const fraction = (magnitude % 1000n).toString().padStart(3, '0');
  return `${value < 0n ? '-' : ''}${magnitude / 1000n}.${fraction}`;
}
