/**
 * Money is an integer count of thousandths of the currency unit ("minor-minor" units), never a
 * float. The largest response amount (1,000,000,000,000 with 3 decimals) is 1e15 thousandths,
 * inside Number.MAX_SAFE_INTEGER, so a plain safe integer is exact.
 */
export type Thousandths = number;

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,3}))?$/;

/**
 * Parses a request decimal string ("10", "10.5", "10.505") to thousandths.
 * Returns undefined for anything else, including more than 3 decimals, which cannot be held exactly.
 */
export function parseAmount(text: string): Thousandths | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const value = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
  if (!Number.isSafeInteger(value)) return undefined;
  return sign === '-' ? -value : value;
}

/** The JSON number a response carries for an amount: exact, at most 3 decimals. */
export function toDecimal(amount: Thousandths): number {
  return amount / 1000;
}

const RATE = /^(\d+)(?:\.(\d+))?$/;

/**
 * `amount` at an exchange rate written as decimal text ("0.9476"), rounded half up to the cent:
 * the payer's amount of a currency conversion (every currency converted has 2 decimals).
 */
export function convertAmount(amount: Thousandths, rate: string): Thousandths {
  const [, whole, fraction = ''] = RATE.exec(rate) ?? ['', '0'];
  const scale = 10n ** BigInt(fraction.length) * 10n; // to cents: thousandths / 10
  const cents = (BigInt(amount) * BigInt(whole + fraction) * 2n + scale) / (scale * 2n);
  return Number(cents * 10n);
}

/**
 * An amount as exact decimal text for people and files (reports, CSV): at least two decimals,
 * three when the thousandth is not zero. "100.00", "0.50", "10.505", "-3.00".
 */
export function formatAmount(amount: Thousandths): string {
  const sign = amount < 0 ? '-' : '';
  const magnitude = Math.abs(amount);
  const fraction = String(magnitude % 1000).padStart(3, '0');
  return `${sign}${Math.floor(magnitude / 1000)}.${fraction.endsWith('0') ? fraction.slice(0, 2) : fraction}`;
}
