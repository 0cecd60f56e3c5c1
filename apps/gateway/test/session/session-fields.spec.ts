import type { GroupField } from '@gateway/contract';
import {
  maskedSessionFields,
  mergeUpdate,
  withSessionFields,
  withoutSecurityCode,
} from '../../src/session/session-fields';

const leaf = { kind: 'string', min: 1, max: 10, description: '' } as const;
const group = (fields: GroupField['fields']): GroupField => ({
  kind: 'group',
  description: '',
  fields,
});
const contract = group({
  order: group({ amount: leaf, currency: leaf }),
  sourceOfFunds: group({ provided: group({ card: group({ number: leaf, securityCode: leaf }) }) }),
});
const stored = {
  order: { amount: '10.00', currency: 'USD' },
  sourceOfFunds: { provided: { card: { number: '5123450000000008', securityCode: '100' } } },
  authentication: { redirectResponseUrl: 'https://shop.example/3ds' },
};

describe('session fields', () => {
  it('request values override session values, field by field', () => {
    expect(withSessionFields(contract, stored, { order: { amount: '30.00' } })).toEqual({
      order: { amount: '30.00', currency: 'USD' },
      sourceOfFunds: stored.sourceOfFunds,
    });
  });

  it('takes only the fields the operation declares', () => {
    expect(withSessionFields(contract, stored, {})).not.toHaveProperty('authentication');
  });

  it('an update replaces stored values member by member', () => {
    expect(mergeUpdate(stored, { order: { amount: '1.00' } }).order).toEqual({
      amount: '1.00',
      currency: 'USD',
    });
  });

  it('shows the card masked 6.4 and never the security code', () => {
    expect(maskedSessionFields(stored).sourceOfFunds).toEqual({
      provided: { card: { number: '512345xxxxxx0008' } },
    });
  });

  it('forgets the security code and keeps the rest', () => {
    const after = withoutSecurityCode(stored);
    expect(after.sourceOfFunds).toEqual({ provided: { card: { number: '5123450000000008' } } });
    expect(withoutSecurityCode(after)).toBe(after);
  });
});
