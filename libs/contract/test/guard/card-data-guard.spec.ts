import { findEmbeddedCardNumber } from '../../src/card-data-guard';

describe('card numbers outside the card field are refused', () => {
  it.each([
    [
      'a card number in a name',
      { customer: { lastName: '5123450000000008' } },
      'customer.lastName',
    ],
    [
      'a card number with spaces',
      { billing: { address: { street: 'Card 5123 4500 0000 0008 here' } } },
      'billing.address.street',
    ],
    [
      'a card number with dashes',
      { order: { reference: '4508-7500-1574-1019' } },
      'order.reference',
    ],
    [
      'a card number inside a longer run',
      { order: { description: '51234500000000089' } },
      'order.description',
    ],
    [
      'a 15-digit card in an item',
      { order: { item: [{ name: 'a' }, { name: '371881634498004' }] } },
      'order.item[1].name',
    ],
    [
      'a card in a cardholder name',
      { sourceOfFunds: { provided: { card: { holder: { lastName: '2223000000000007' } } } } },
      'sourceOfFunds.provided.card.holder.lastName',
    ],
  ])('%s', (_, body, field) => {
    const error = findEmbeddedCardNumber(body);
    expect(error).toMatchObject({ field, validationType: 'INVALID' });
    expect(error!.explanation).not.toMatch(/\d{6}/);
  });

  it.each([
    [
      'the card number field itself',
      { sourceOfFunds: { provided: { card: { number: '5123450000000008' } } } },
    ],
    [
      'a bank account number',
      { sourceOfFunds: { provided: { ach: { bankAccountNumber: '5123450000000008' } } } },
    ],
    [
      'a gift card number',
      { sourceOfFunds: { provided: { giftCard: { number: '6011000990139424' } } } },
    ],
    ['a 12-digit reference', { order: { reference: '512345000000' } }],
    ['a 13-digit reference failing the Luhn check', { order: { reference: '1000000000000' } }],
    ['the largest amount', { order: { amount: '1000000000000' } }],
    ['a phone number', { customer: { phone: '+44 20 7946 0958' } }],
    ['no digits at all', { customer: { firstName: 'Pat' } }],
  ])('%s is accepted', (_, body) => expect(findEmbeddedCardNumber(body)).toBeUndefined());
});
