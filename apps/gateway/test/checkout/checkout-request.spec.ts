import { cardOf, checkoutRequest } from '../../src/checkout/checkout-request';
import { termsOf } from '../../src/checkout/checkout-terms';

const terms = (operation: string, apiVersion = 100, saveCard?: string) =>
  termsOf(apiVersion, {
    interaction: {
      operation,
      returnUrl: 'https://shop.example/receipt',
      merchant: { name: 'Mug Shop' },
      ...(saveCard ? { saveCard } : {}),
    },
    order: { id: 'o-1', amount: '49.90', currency: 'USD', description: 'Two mugs' },
  });

const form = {
  number: '4508 7500-1574 1019',
  expiryMonth: '01',
  expiryYear: '39',
  securityCode: '100',
  firstName: 'Pat',
  lastName: '',
};

describe('the payment page request', () => {
  it('is the card as the contract has it: blanks left out, the number without spaces or dashes', () => {
    expect(cardOf(form)).toEqual({
      number: '4508750015741019',
      expiry: { month: '01', year: '39' },
      securityCode: '100',
      holder: { firstName: 'Pat' },
    });
  });

  it('is PAY for PURCHASE, AUTHORIZE for AUTHORIZE, VERIFY (currency only) for VERIFY, none for NONE', () => {
    const pay = checkoutRequest(terms('PURCHASE'), form);
    expect(pay).toMatchObject({
      apiOperation: 'PAY',
      value: { order: { amount: '49.90', currency: 'USD', description: 'Two mugs' } },
    });
    expect(checkoutRequest(terms('AUTHORIZE'), form)).toMatchObject({ apiOperation: 'AUTHORIZE' });
    const verify = checkoutRequest(terms('VERIFY'), form);
    expect(verify).toMatchObject({ apiOperation: 'VERIFY', value: { order: { currency: 'USD' } } });
    // NONE: no operation, the card as Update Session stores it.
    expect(checkoutRequest(terms('NONE'), form)).toEqual({
      apiOperation: 'UPDATE_SESSION',
      value: { sourceOfFunds: { type: 'CARD', provided: { card: cardOf(form) } } },
    });
  });

  it("is refused at the input the contract names, with the contract's words, never the value", () => {
    const refused = checkoutRequest(terms('PURCHASE'), { ...form, securityCode: '12x' });
    expect(refused).toEqual({ input: 'securityCode', message: expect.stringMatching(/digits/) });
    expect(JSON.stringify(refused)).not.toContain('12x');
    expect(checkoutRequest(terms('PURCHASE'), { ...form, expiryMonth: '13' })).toMatchObject({
      input: 'expiryMonth',
    });
    expect(checkoutRequest(terms('PURCHASE'), { ...form, number: ' ' })).toMatchObject({
      input: 'number',
    });
  });

  it('saves the card only where the page offered it and the payer asked', () => {
    const ask = { ...form, saveCard: 'yes' };
    expect(checkoutRequest(terms('PURCHASE', 100, 'OFFER'), ask)).toMatchObject({ saveCard: true });
    expect(checkoutRequest(terms('PURCHASE', 100, 'OFFER'), form)).not.toHaveProperty('saveCard');
    expect(checkoutRequest(terms('PURCHASE'), ask)).not.toHaveProperty('saveCard');
  });
});
