import type { AcquirerCard } from '../acquirer.port';

export type ExpiryOutcome =
  | 'APPROVED'
  | 'DECLINED'
  | 'EXPIRED_CARD'
  | 'TIMED_OUT'
  | 'ACQUIRER_SYSTEM_ERROR'
  | 'UNSPECIFIED_FAILURE'
  | 'UNKNOWN';

/** Behaviour notes: the card's expiry (MM/YY) selects the outcome. */
const OUTCOME_BY_EXPIRY: Readonly<Record<string, ExpiryOutcome>> = {
  '01/39': 'APPROVED',
  '05/39': 'DECLINED',
  '04/27': 'EXPIRED_CARD',
  '08/28': 'TIMED_OUT',
  '01/37': 'ACQUIRER_SYSTEM_ERROR',
  '02/37': 'UNSPECIFIED_FAILURE',
  '05/37': 'UNKNOWN',
};

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * The table wins over the calendar, so that 08/28 stays TIMED_OUT after August 2028 and the tests
 * never expire. Decided here: any other expiry before the current month (UTC) is EXPIRED_CARD; a
 * card is valid through the last day of its expiry month.
 */
export function outcomeByExpiry(
  card: Pick<AcquirerCard, 'expiryMonth' | 'expiryYear'>,
  now: Date,
): ExpiryOutcome {
  const listed = OUTCOME_BY_EXPIRY[`${twoDigits(card.expiryMonth)}/${twoDigits(card.expiryYear)}`];
  if (listed) return listed;
  const expiry = (2000 + card.expiryYear) * 12 + card.expiryMonth;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  return expiry < current ? 'EXPIRED_CARD' : 'APPROVED';
}
