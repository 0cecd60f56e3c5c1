/**
 * Exact decimal arithmetic for cross-field rules. Amounts are compared in integer thousandths as
 * BigInt: item quantities reach 16 digits, so quantity x price overflows safe integers.
 */
const DECIMAL = /^-?[0-9]+(?:[.][0-9]{1,3})?$/;

/** `"10.5"` → `10500n`; undefined for anything that is not a request decimal with at most 3 decimals. */
export function parseThousandths(text: unknown): bigint | undefined {
  if (typeof text !== 'string' || !DECIMAL.test(text)) return undefined;
  const negative = text[0] === '-';
  const point = text.indexOf('.');
  const integer = text.slice(negative ? 1 : 0, point < 0 ? text.length : point);
  const fraction = point < 0 ? 0 : +text.slice(point + 1).padEnd(3, '0');
  // Up to 12 integer digits (any valid amount) the thousandths are a safe integer: this runs for
  // every amount of every request, and one BigInt from a number is cheaper than two from text.
  const value =
    integer.length <= 12
      ? BigInt(+integer * 1000 + fraction)
      : BigInt(integer) * 1000n + BigInt(fraction);
  return negative ? -value : value;
}

/** `12500n` → `"12.500"`. */
export function formatThousandths(value: bigint): string {
  const magnitude = value < 0n ? -value : value;
  const fraction = (magnitude % 1000n).toString().padStart(3, '0');
  return `${value < 0n ? '-' : ''}${magnitude / 1000n}.${fraction}`;
}
