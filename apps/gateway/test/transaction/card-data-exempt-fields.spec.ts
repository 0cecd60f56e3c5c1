import { CARD_DATA_EXEMPT_FIELDS } from '@gateway/contract';
import { maskedSessionFields } from '../../src/session/session-fields';
import { cardOf, recordedGroup } from '../../src/transaction/source-of-funds.mapper';
import type { RecordProtection } from '../../src/transaction/sensitive-data';

const CARD = '5123450000000008';
const protect: RecordProtection = { cardMask: '8.4', fingerprint: () => 'fp' };

/** Every exempt field of one provided group, holding the card number. */
function groupsOfExemptFields(): Record<string, Record<string, unknown>> {
  const groups: Record<string, Record<string, unknown>> = {};
  for (const path of CARD_DATA_EXEMPT_FIELDS) {
    const [group, member] = path.replace('sourceOfFunds.provided.', '').split('.');
    (groups[group] ??= {})[member] = CARD;
  }
  return groups;
}

/**
 * The card-data guard lets a card-like number through only in its exempt fields; this holds it to
 * the promise that each of them is masked or dropped wherever the gateway shows or records it.
 */
describe('every field exempt from the card-data guard is masked on the way out', () => {
  const groups = groupsOfExemptFields();

  it('all sit in sourceOfFunds.provided', () => {
    expect(CARD_DATA_EXEMPT_FIELDS.every((f) => f.startsWith('sourceOfFunds.provided.'))).toBe(
      true,
    );
    expect(Object.keys(groups).sort()).toEqual(['ach', 'card', 'giftCard', 'providerC']);
  });

  it('in what a transaction records (and so in every response, feed and event)', () => {
    const { card, ...accounts } = groups;
    const recorded = [
      cardOf(
        { sourceOfFunds: { provided: { card: { ...card, expiry: { month: '1', year: '39' } } } } },
        protect,
      ).recorded,
      ...Object.entries(accounts).map(([group, details]) => recordedGroup(group, details, protect)),
    ];
    expect(JSON.stringify(recorded)).not.toContain(CARD);
  });

  it('in what Retrieve Session shows', () => {
    const shown = maskedSessionFields({ sourceOfFunds: { provided: groups } }, '8.4');
    expect(JSON.stringify(shown)).not.toContain(CARD);
    expect(shown).toEqual({
      sourceOfFunds: {
        provided: {
          ach: { bankAccountNumber: 'xxxxxxxxxxxx0008' },
          card: { number: '51234500xxxx0008' },
          giftCard: { number: 'xxxxxxxxxxxx0008' },
          providerC: { bankAccountNumber: 'xxxxxxxxxxxx0008', iban: 'xxxxxxxxxxxx0008' },
        },
      },
    });
  });
});
