import { unusableQuote } from '@gateway/contract';

/** Until issue 15 takes quotes up, a quote named on AUTHORIZE or PAY is refused, never ignored. */
describe('unusableQuote', () => {
  const conversion = { payerCurrency: 'EUR', uptake: 'ACCEPTED', payerAmount: '9.48' };

  it.each(['AUTHORIZE', 'PAY'])('refuses a requestId on %s, naming it', (apiOperation) => {
    expect(
      unusableQuote({ apiOperation, currencyConversion: { ...conversion, requestId: 'q-1' } }),
    ).toEqual({
      field: 'currencyConversion.requestId',
      validationType: 'INVALID',
      explanation:
        "Value 'q-1' is invalid. No currency-conversion quote of that id can be used: taking up a quote is not offered yet",
    });
  });

  it('accepts a conversion without requestId, and no conversion at all', () => {
    expect(unusableQuote({ apiOperation: 'PAY', currencyConversion: conversion })).toBeUndefined();
    expect(
      unusableQuote({
        apiOperation: 'PAY',
        currencyConversion: { ...conversion, requestId: null },
      }),
    ).toBeUndefined();
    expect(unusableQuote({ apiOperation: 'AUTHORIZE' })).toBeUndefined();
  });

  it('leaves the operations that take no quote to their contracts', () => {
    expect(
      unusableQuote({ apiOperation: 'REFUND', currencyConversion: { requestId: 'q-1' } }),
    ).toBeUndefined();
  });

  it('never echoes a card number sent as the requestId', () => {
    const refused = unusableQuote({
      apiOperation: 'PAY',
      currencyConversion: { requestId: '5123450000000008' },
    });
    expect(refused?.explanation).not.toContain('5123450000000008');
  });
});
