import {
  CARD_DATA_EXEMPT_FIELDS,
  findCardNumberIn,
  findEmbeddedCardNumber,
} from '../../src/card-data-guard';

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
      'a card number with dots',
      { order: { description: '5123.4500.0000.0008' } },
      'order.description',
    ],
    ['a card number in mixed spacing', { correlationId: '5123 4500-0000.0008' }, 'correlationId'],
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
    [
      'a card as the value of a custom field',
      { order: { custom: { note: 'card 5123 4500 0000 0008' } } },
      'order.custom.note',
    ],
    [
      'a card as the name of a custom field (the name is not echoed)',
      { order: { custom: { '5123450000000008': 'x' } } },
      'order.custom.xxxxxxxxxxxxxxxx',
    ],
    [
      'a card as the name of a risk field',
      { risk: { custom: { '4508750015741019': 'x' } } },
      'risk.custom.xxxxxxxxxxxxxxxx',
    ],
    [
      'a card in providerC.bankIdentifier (echoed unmasked, so not exempt)',
      { sourceOfFunds: { provided: { providerC: { bankIdentifier: '5123450000000008' } } } },
      'sourceOfFunds.provided.providerC.bankIdentifier',
    ],
    [
      'a Luhn-valid token (issued tokens never pass Luhn)',
      { sourceOfFunds: { token: '5123450000000008' } },
      'sourceOfFunds.token',
    ],
    [
      'a card in a URL',
      { order: { notificationUrl: 'https://shop.example.com/n?c=5123450000000008' } },
      'order.notificationUrl',
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
    ['an IBAN', { sourceOfFunds: { provided: { providerC: { iban: '5123 4500 0000 0008' } } } }],
    [
      'a gift card number',
      { sourceOfFunds: { provided: { giftCard: { number: '6011000990139424' } } } },
    ],
    ['a 12-digit reference', { order: { reference: '512345000000' } }],
    ['a 13-digit reference failing the Luhn check', { order: { reference: '1000000000000' } }],
    [
      'a card glued to more digits (another number)',
      { order: { description: '51234500000000089' } },
    ],
    ['a long numeric session id', { session: { id: 'SESSION0002345678901234567890123' } }],
    ['the largest amount', { order: { amount: '1000000000000' } }],
    ['an amount whose digits pass Luhn', { order: { amount: '1234567890.128' } }],
    ['an item amount', { order: { item: [{ unitPrice: '1234567890.128' }] } }],
    ['a phone number', { customer: { phone: '+44 20 7946 0958' } }],
    ['an international mobile number', { customer: { mobilePhone: '+49 151 1234 5678' } }],
    ['no digits at all', { customer: { firstName: 'Pat' } }],
  ])('%s is accepted', (_, body) => expect(findEmbeddedCardNumber(body)).toBeUndefined());

  it('exempts only the sensitive fields, each masked or dropped on the way out', () => {
    expect(CARD_DATA_EXEMPT_FIELDS).toEqual([
      'sourceOfFunds.provided.ach.bankAccountNumber',
      'sourceOfFunds.provided.card.number',
      'sourceOfFunds.provided.card.securityCode',
      'sourceOfFunds.provided.giftCard.number',
      'sourceOfFunds.provided.giftCard.pin',
      'sourceOfFunds.provided.providerC.bankAccountNumber',
      'sourceOfFunds.provided.providerC.iban',
    ]);
  });

  it('judges one text, such as a path id, naming the field', () => {
    expect(findCardNumberIn('5123-4500-0000-0008', 'order.id')).toMatchObject({
      field: 'order.id',
      validationType: 'INVALID',
    });
    expect(findCardNumberIn('order-2024-0001', 'order.id')).toBeUndefined();
  });
});
