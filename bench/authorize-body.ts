/** The AUTHORIZE body `npm run bench` sends: every field a string, as most merchants send it. */
export const authorizeBody = JSON.stringify({
  apiOperation: 'AUTHORIZE',
  order: { amount: '100.00', currency: 'USD', reference: 'bench' },
  billing: { address: { street: 'Alpha St', city: 'Bench', postcodeZip: '12345', country: 'USA' } },
  customer: { email: 'payer@example.com', firstName: 'Ben', lastName: 'Chmark' },
  sourceOfFunds: {
    type: 'CARD',
    provided: {
      card: { number: '5123450000000008', expiry: { month: '1', year: '39' }, securityCode: '100' },
    },
  },
});

/** The same body as a Java SDK writes it: the amount and the card's digits as JSON numbers. */
export const authorizeBodyWithNumbers = authorizeBody
  .replace('"amount":"100.00"', '"amount":100.00')
  .replace('"number":"5123450000000008"', '"number":5123450000000008')
  .replace('"month":"1","year":"39"', '"month":1,"year":39')
  .replace('"securityCode":"100"', '"securityCode":100');
