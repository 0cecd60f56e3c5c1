import { findCardNumber, redactCardNumbers } from './card-number-runs';

/**
 * Card number handling that the domain relies on. A full card number exists only in memory while a
 * request is processed; what is recorded is the 6.4 mask (first six, last four, the rest 'x').
 */

/** True for 9-19 digits passing the Luhn check. */
export function isLuhnValid(number: string): boolean {
  if (!/^\d{9,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * How much of a card number shows: leading digits '.' trailing digits, strictest first (spec: "a
 * 6.4 mask"). 8.4 is what PCI DSS allows at most, and only for numbers of 15 or more digits.
 */
export const CARD_MASKS = ['0.4', '6.4', '8.4'] as const;
export type CardMask = (typeof CARD_MASKS)[number];

/** The mask that shows less. */
export function stricterMask(a: CardMask, b: CardMask): CardMask {
  return CARD_MASKS.indexOf(a) <= CARD_MASKS.indexOf(b) ? a : b;
}

/**
 * `5123450000000008` → `512345xxxxxx0008` (6.4). Also narrows a recorded mask to a stricter one:
 * a position already 'x' stays 'x'. A number too short to hide anything is all 'x'.
 */
export function maskCardNumber(number: string, mask: CardMask = '6.4'): string {
  const [first, last] = mask.split('.').map(Number);
  const lead = number.length < 15 ? Math.min(first, 6) : first;
  if (number.length <= lead + last) return 'x'.repeat(number.length);
  return (
    number.slice(0, lead) +
    'x'.repeat(number.length - lead - last) +
    number.slice(-last || number.length)
  );
}

/** Bank account numbers, IBANs and gift card numbers: only the last four characters stay. */
export function maskAccountNumber(value: string): string {
  const keep = Math.min(4, Math.floor(value.length / 2));
  return 'x'.repeat(value.length - keep) + value.slice(value.length - keep);
}

/**
 * Blanks what could be a card number, for text shown to clients or written to logs: any 9 or more
 * digits written together (the spec's card numbers are 9-19 digits), and any card number in any
 * spacing (card-number-runs.ts).
 */
export function redactCardLikeRuns(
  text: string,
  mask: (run: string) => string = () => '[redacted]',
): string {
  return redactCardNumbers(text, mask, { groupOf: 9 });
}

/** Whether redactCardLikeRuns would blank anything: such a value is never echoed. */
export function holdsCardLikeRun(text: string): boolean {
  return findCardNumber(text, { groupOf: 9 }) !== undefined;
}
