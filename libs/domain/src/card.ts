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

/** `5123450000000008` → `512345xxxxxx0008`. */
export function maskCardNumber(number: string): string {
  if (number.length <= 10) return 'x'.repeat(number.length);
  return number.slice(0, 6) + 'x'.repeat(number.length - 10) + number.slice(-4);
}

/** Bank account numbers, IBANs and gift card numbers: only the last four characters stay. */
export function maskAccountNumber(value: string): string {
  const keep = Math.min(4, Math.floor(value.length / 2));
  return 'x'.repeat(value.length - keep) + value.slice(value.length - keep);
}

/** Spec: a card number is 9-19 digits, so any run of 9 or more digits could be one. */
const CARD_LIKE_RUNS = /[0-9]{9,}/g;

/** Blanks every digit run that could be a card number: for text shown to clients or written to logs. */
export function redactCardLikeRuns(
  text: string,
  mask: (run: string) => string = () => '[redacted]',
): string {
  return text.replace(CARD_LIKE_RUNS, mask);
}
