import type { CardFacts, FundingMethod } from '../acquirer.port';

/**
 * Funding methods of the behaviour notes' test cards (chosen here, as the notes are silent):
 * one Visa and one Mastercard debit card, the 15-digit card as a charge card. Any other card of
 * a known brand is CREDIT; a card of unknown brand has UNKNOWN funding.
 */
const FUNDING_BY_CARD: Readonly<Record<string, FundingMethod>> = {
  '4508750015741019': 'DEBIT',
  '2223000000000023': 'DEBIT',
  '371881634498004': 'CHARGE',
};

/** Brand and scheme from the leading digits (the issuer identification number). */
function brandOf(number: string): string {
  if (number.startsWith('4')) return 'VISA';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
  if (two === 34 || two === 37) return 'AMEX';
  return 'UNKNOWN';
}

export function cardFacts(number: string): CardFacts {
  const brand = brandOf(number);
  if (brand === 'UNKNOWN') return { brand, scheme: 'OTHER', fundingMethod: 'UNKNOWN' };
  return { brand, scheme: brand, fundingMethod: FUNDING_BY_CARD[number] ?? 'CREDIT' };
}

/** The card types the simulator takes, one per brand and funding method it issues. */
export const SIMULATOR_CARD_TYPES: readonly CardFacts[] = [
  { brand: 'MASTERCARD', scheme: 'MASTERCARD', fundingMethod: 'CREDIT' },
  { brand: 'MASTERCARD', scheme: 'MASTERCARD', fundingMethod: 'DEBIT' },
  { brand: 'VISA', scheme: 'VISA', fundingMethod: 'CREDIT' },
  { brand: 'VISA', scheme: 'VISA', fundingMethod: 'DEBIT' },
  { brand: 'AMEX', scheme: 'AMEX', fundingMethod: 'CREDIT' },
  { brand: 'AMEX', scheme: 'AMEX', fundingMethod: 'CHARGE' },
];
