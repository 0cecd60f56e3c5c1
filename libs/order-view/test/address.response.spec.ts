import { withResponseAddresses } from '../src/address.response';

describe('addresses in responses', () => {
  it('joins street2 into street and leaves street2 empty', () => {
    expect(
      withResponseAddresses({
        billing: { address: { street: '1 Alpha St', street2: 'Flat 2', city: 'Town' } },
      }),
    ).toEqual({
      billing: { address: { street: '1 Alpha St Flat 2', city: 'Town' } },
    });
  });

  it('cuts the joined street at 100 characters, street2 being cut', () => {
    const shaped = withResponseAddresses({
      shipping: { address: { street: 's'.repeat(90), street2: 't'.repeat(50) } },
    });
    expect((shaped.shipping as any).address.street).toBe(`${'s'.repeat(90)} ${'t'.repeat(9)}`);
  });

  it('shapes the order statement descriptor and sub-merchant addresses too, and nothing else', () => {
    const echo = {
      order: {
        statementDescriptor: { address: { street: 'A', street2: 'B' } },
        subMerchant: { address: { street2: 'C' } },
        reference: 'r',
      },
      customer: { street2: 'x' },
    };
    expect(withResponseAddresses(echo)).toEqual({
      order: {
        statementDescriptor: { address: { street: 'A B' } },
        subMerchant: { address: { street: 'C' } },
        reference: 'r',
      },
      customer: { street2: 'x' },
    });
  });

  it('leaves an address without street2 as it was', () => {
    const echo = { billing: { address: { street: 'A' } } };
    expect(withResponseAddresses(echo)).toBe(echo);
  });
});
