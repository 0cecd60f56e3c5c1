import type { FieldError } from './api-error';

/**
 * Card numbers belong in sourceOfFunds.provided.card.number only. A merchant that puts one in a
 * free-text field (a name, a street, a reference) would otherwise have it stored in events and
 * echoed in responses, so such a request is refused.
 *
 * Rule (decided here, documented in the README): a run of 13 or more digits, where single spaces
 * or dashes may separate them, is refused when any stretch of 13-19 consecutive digits inside it
 * passes the Luhn check, the test card-data scanners use. The fields that legitimately carry
 * account numbers or tokens are exempt; they have rules of their own.
 */
const EXEMPT = new Set([
  'sourceOfFunds.provided.card.number',
  'sourceOfFunds.provided.card.securityCode',
  'sourceOfFunds.provided.giftCard.number',
  'sourceOfFunds.provided.giftCard.pin',
  'sourceOfFunds.token',
  'sourceOfFunds.provided.ach.bankAccountNumber',
  'sourceOfFunds.provided.ach.routingNumber',
  'sourceOfFunds.provided.providerB.bankIdentifier',
  'sourceOfFunds.provided.providerC.bankAccountNumber',
  'sourceOfFunds.provided.providerC.bankIdentifier',
  'sourceOfFunds.provided.providerC.iban',
]);

const DIGIT_RUN = /\d(?:[ -]?\d){12,}/g;

export function findEmbeddedCardNumber(value: unknown, path = ''): FieldError | undefined {
  if (typeof value === 'string')
    return !EXEMPT.has(path) && holdsCardNumber(value) ? refusal(path) : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findEmbeddedCardNumber(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      const found = findEmbeddedCardNumber(member, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

function holdsCardNumber(text: string): boolean {
  for (const run of text.match(DIGIT_RUN) ?? []) {
    const digits = run.replace(/[ -]/g, '');
    for (let length = 13; length <= 19; length++) {
      for (let start = 0; start + length <= digits.length; start++) {
        if (luhn(digits, start, length)) return true;
      }
    }
  }
  return false;
}

function luhn(digits: string, start: number, length: number): boolean {
  let sum = 0;
  for (let i = 0; i < length; i++) {
    let d = digits.charCodeAt(start + length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function refusal(field: string): FieldError {
  return {
    field,
    validationType: 'INVALID',
    explanation:
      'Value is invalid. It contains a number that could be a card number; card data belongs in sourceOfFunds.provided.card only',
  };
}
