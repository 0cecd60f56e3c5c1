import { citedQuote, refusedQuote } from '@gateway/contract';

/** The quote an AUTHORIZE or PAY cites, and the refusal of one it cannot take up. */
describe('citedQuote', () => {
  const conversion = { payerCurrency: 'EUR', uptake: 'ACCEPTED', payerAmount: '9.48' };

  it.each(['AUTHORIZE', 'PAY'])('is the requestId on %s', (apiOperation) => {
    expect(
      citedQuote({ apiOperation, currencyConversion: { ...conversion, requestId: 'q-1' } }),
    ).toBe('q-1');
  });

  it('is none without a requestId, without a conversion, or on an operation that takes no quote', () => {
    expect(citedQuote({ apiOperation: 'PAY', currencyConversion: conversion })).toBeUndefined();
    expect(citedQuote({ apiOperation: 'AUTHORIZE' })).toBeUndefined();
    expect(
      citedQuote({ apiOperation: 'REFUND', currencyConversion: { requestId: 'q-1' } }),
    ).toBeUndefined();
  });
});

describe('refusedQuote', () => {
  it('is INVALID on currencyConversion.requestId, saying why', () => {
    expect(refusedQuote('q-1', 'The quote has expired')).toEqual({
      field: 'currencyConversion.requestId',
      validationType: 'INVALID',
      explanation: "Value 'q-1' is invalid. The quote has expired",
    });
  });

  it('never echoes a card number sent as the requestId', () => {
    expect(refusedQuote('5123450000000008', 'Unknown').explanation).not.toContain(
      '5123450000000008',
    );
  });
});
