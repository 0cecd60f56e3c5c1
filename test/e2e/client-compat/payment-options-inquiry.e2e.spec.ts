import { SIMULATOR_CARD_TYPES } from '@gateway/acquirer';
import { merchantClient, orderIds, useGateway } from '../../support/gateway-process';

/**
 * Payment Options Inquiry (behaviour notes): POST …/merchant/{m}/paymentOptionsInquiry, answered
 * 200 with the merchant's options, and for a foreign card and an amount, a currency-conversion
 * offer at the simulator's fixed rates (0.92 EUR and 0.79 GBP per USD, 3 % margin).
 */
const EUR_CARD = '4012000033330026';
const GBP_CARD = '4508750015741019';

const inquiry = (number: string, amount = '100.00', currency = 'USD') => ({
  order: { amount, currency },
  sourceOfFunds: { type: 'CARD', provided: { card: { number } } },
});

const under = useGateway();

describe('the options', () => {
  it('answers 200 SUCCESS with operations, card types, browser payment providers, source and currencies', async () => {
    const answer = await under.api.post('/paymentOptionsInquiry', {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      currencies: [{ currency: 'USD' }, { currency: 'EUR' }, { currency: 'GBP' }],
      merchant: 'TESTMERCHANT',
      paymentTypes: {
        browserPayment: ['PROVIDER_D', 'PROVIDER_B', 'PROVIDER_A', 'PROVIDER_C', 'PROVIDER_E'].map(
          (type) => ({ type }),
        ),
        card: {
          // The simulator's: Mastercard and Visa credit and debit, Amex credit and charge.
          cardTypes: SIMULATOR_CARD_TYPES,
        },
      },
      result: 'SUCCESS',
      supportedPaymentOperations: expect.arrayContaining([
        { operation: 'AUTHORIZE' },
        { operation: 'PAY' },
        { operation: 'CAPTURE' },
        { operation: 'REFUND' },
        { operation: 'VOID' },
        { operation: 'VERIFY' },
      ]),
      transactionSource: 'INTERNET',
    });
  });

  it('takes apiOperation PAYMENT_OPTIONS_INQUIRY and echoes correlationId', async () => {
    const answer = await under.api.post('/paymentOptionsInquiry', {
      apiOperation: 'PAYMENT_OPTIONS_INQUIRY',
      correlationId: 'poi-1',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ correlationId: 'poi-1', result: 'SUCCESS' });
  });
});

describe('the currency-conversion offer', () => {
  it('a EUR card paying USD: 100.00 USD is 94.76 EUR at 0.9476 (0.92 and 3 %)', async () => {
    const answer = await under.api.post('/paymentOptionsInquiry', inquiry(EUR_CARD));
    expect(answer.status).toBe(200);
    expect(answer.body.currencyConversion).toEqual({
      exchangeRateTime: '2026-01-01T00:00:00.000Z',
      marginPercentage: 3,
      payerAmount: 94.76,
      payerCurrency: 'EUR',
      payerExchangeRate: 0.9476,
      provider: 'DCC_PROVIDER_A',
      requestId: expect.stringMatching(/^[0-9a-z]+\.[\w-]{8}\.[\w-]{22}$/),
    });
    expect(answer.text).not.toContain(EUR_CARD);
  });

  it('a GBP card paying USD: 59.99 USD is 48.81 GBP at 0.8137 (0.79 and 3 %)', async () => {
    const answer = await under.api.post('/paymentOptionsInquiry', inquiry(GBP_CARD, '59.99'));
    expect(answer.body.currencyConversion).toMatchObject({
      payerAmount: 48.81,
      payerCurrency: 'GBP',
      payerExchangeRate: 0.8137,
    });
  });

  it('the same question gets the same terms, each inquiry a quote of its own; nothing stored', async () => {
    const first = await under.api.post('/paymentOptionsInquiry', inquiry(EUR_CARD, '12.34'));
    const second = await under.api.post('/paymentOptionsInquiry', inquiry(EUR_CARD, '12.34'));
    const { requestId, ...terms } = first.body.currencyConversion;
    expect(second.body.currencyConversion).toEqual({ ...terms, requestId: expect.any(String) });
    expect(second.body.currencyConversion.requestId).not.toBe(requestId);
  });

  it("takes the card from a card token, the merchant's own only", async () => {
    const saved = await under.api.put('/token/PoiEur1', {
      sourceOfFunds: {
        provided: { card: { number: EUR_CARD, expiry: { month: '1', year: '39' } } },
      },
    });
    expect(saved.status).toBe(201);
    const byToken = {
      order: { amount: '100.00', currency: 'USD' },
      sourceOfFunds: { token: 'PoiEur1' },
    };
    const answer = await under.api.post('/paymentOptionsInquiry', byToken);
    expect(answer.status).toBe(200);
    expect(answer.body.currencyConversion).toMatchObject({
      payerAmount: 94.76,
      payerCurrency: 'EUR',
    });
    const others = await merchantClient(under.gateway, 'TESTOTHER').post(
      '/paymentOptionsInquiry',
      byToken,
    );
    expect(others.status).toBe(400);
    expect(others.body.error).toMatchObject({
      field: 'sourceOfFunds.token',
      validationType: 'INVALID',
    });
  });

  it('no offer for a domestic card, an order in the card currency, or without an amount', async () => {
    for (const body of [
      inquiry('5123450000000008'),
      inquiry(EUR_CARD, '100.00', 'EUR'),
      { sourceOfFunds: { provided: { card: { number: EUR_CARD } } } },
      { order: { amount: '100.00', currency: 'USD' } },
    ]) {
      const answer = await under.api.post('/paymentOptionsInquiry', body);
      expect(answer.status).toBe(200);
      expect(answer.body.currencyConversion).toBeUndefined();
    }
  });

  it('takes the card, amount and currency from a payment session; sent fields win', async () => {
    const session = (await under.api.post('/session')).body.session.id as string;
    const updated = await under.api.put(`/session/${session}`, inquiry(GBP_CARD, '100.00'));
    expect(updated.status).toBe(200);
    const fromSession = await under.api.post('/paymentOptionsInquiry', {
      session: { id: session },
    });
    expect(fromSession.body.currencyConversion).toMatchObject({
      payerCurrency: 'GBP',
      payerAmount: 81.37,
    });
    const overridden = await under.api.post('/paymentOptionsInquiry', {
      session: { id: session },
      order: { amount: '10.00' },
    });
    expect(overridden.body.currencyConversion.payerAmount).toBe(8.14);
  });
});

describe('taking the offer up (issue 15)', () => {
  const order = orderIds('poi-uptake');
  const payment = (apiOperation: string, session: string, requestId: string) => ({
    apiOperation,
    order: { amount: '100.00', currency: 'USD' },
    session: { id: session },
    currencyConversion: {
      payerAmount: '94.76',
      payerCurrency: 'EUR',
      payerExchangeRate: '0.9476',
      provider: 'DCC_PROVIDER_A',
      requestId,
      uptake: 'ACCEPTED',
    },
  });

  it.each(['AUTHORIZE', 'PAY'])(
    'a %s taking the quote up, the card from a session, settles at its terms',
    async (apiOperation) => {
      const session = (await under.api.post('/session')).body.session.id as string;
      const card = { number: EUR_CARD, expiry: { month: '1', year: '39' } };
      await under.api.put(`/session/${session}`, { sourceOfFunds: { provided: { card } } });
      const offer = await under.api.post('/paymentOptionsInquiry', {
        ...inquiry(EUR_CARD),
        session: { id: session },
      });
      const { requestId } = offer.body.currencyConversion;
      const paid = await under.api.put(
        `/order/${order()}/transaction/1`,
        payment(apiOperation, session, requestId),
      );
      expect(paid.status).toBe(201);
      const { requestId: _quote, ...terms } = offer.body.currencyConversion;
      expect(paid.body.currencyConversion).toEqual({ ...terms, uptake: 'ACCEPTED' });
    },
  );

  it('a refused quote records nothing and leaves the payment session free for another order', async () => {
    const session = (await under.api.post('/session')).body.session.id as string;
    const card = { number: EUR_CARD, expiry: { month: '1', year: '39' } };
    await under.api.put(`/session/${session}`, { sourceOfFunds: { provided: { card } } });
    const id = order();
    const refused = await under.api.put(
      `/order/${id}/transaction/1`,
      payment('PAY', session, 'not-a-quote'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      cause: 'INVALID_REQUEST',
      field: 'currencyConversion.requestId',
      validationType: 'INVALID',
    });
    expect((await under.api.get(`/order/${id}`)).status).toBe(404);
    const { requestId: _quote, ...conversion } = payment('PAY', session, '').currencyConversion;
    const paid = await under.api.put(`/order/${order()}/transaction/1`, {
      ...payment('PAY', session, ''),
      currencyConversion: conversion,
    });
    expect(paid.status).toBe(201);
    expect(paid.body.result).toBe('SUCCESS');
  });

  it('a malformed field is reported first; without a session too', async () => {
    const body = {
      ...payment('AUTHORIZE', 'x', 'any-quote'),
      session: undefined,
      sourceOfFunds: {
        type: 'CARD',
        provided: { card: { number: EUR_CARD, expiry: { month: '1', year: '39' } } },
      },
    };
    // An unknown quote is INVALID once the fields are well formed.
    const quote = await under.api.put(`/order/${order()}/transaction/1`, body);
    expect(quote.body.error).toMatchObject({ field: 'currencyConversion.requestId' });
    const malformed = await under.api.put(`/order/${order()}/transaction/1`, {
      ...body,
      order: { amount: '1.0001', currency: 'USD' },
    });
    expect(malformed.body.error).toMatchObject({ field: 'order.amount' });
  });
});

describe('refusals', () => {
  const refusal = (field: string, validationType = 'INVALID') => ({
    result: 'ERROR',
    error: expect.objectContaining({ cause: 'INVALID_REQUEST', field, validationType }),
  });

  it.each([
    ['an unknown field', { order: { amount: '1.00', colour: 'red' } }, 'order.colour'],
    ['an unknown card token', { sourceOfFunds: { token: '1234' } }, 'sourceOfFunds.token'],
    ['a bad amount', { order: { amount: '1.0001', currency: 'USD' } }, 'order.amount'],
    ['a bad currency', { order: { amount: '1.00', currency: 'usd' } }, 'order.currency'],
    ['another apiOperation', { apiOperation: 'AUTHORIZE' }, 'apiOperation'],
    ['an unknown session', { session: { id: 'SESSION0000000000000000000000000' } }, 'session.id'],
  ])('%s is INVALID, naming the field', async (_name, body, field) => {
    const answer = await under.api.post('/paymentOptionsInquiry', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refusal(field));
  });

  it('a card number is never echoed in an error', async () => {
    const answer = await under.api.post('/paymentOptionsInquiry', {
      sourceOfFunds: { provided: { card: { number: `${EUR_CARD}x` } } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refusal('sourceOfFunds.provided.card.number'));
    expect(answer.text).not.toContain(EUR_CARD);
  });

  it('needs the merchant credentials: none is a 401 with the challenge', async () => {
    const anonymous = merchantClient(under.gateway, 'TESTMERCHANT', 100, { authorization: null });
    const answer = await anonymous.post('/paymentOptionsInquiry', {});
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
  });

  it('a merchant without an acquirer link is refused as for a payment', async () => {
    const answer = await merchantClient(under.gateway, 'LIVEMERCHANT').post(
      '/paymentOptionsInquiry',
      {},
    );
    expect(answer.status).toBe(403);
    expect(answer.body.error.cause).toBe('REQUEST_REJECTED');
  });

  it('refuses versions outside 1-100 as for other paths', async () => {
    const answer = await merchantClient(under.gateway, 'TESTMERCHANT', 101).post(
      '/paymentOptionsInquiry',
      {},
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refusal('version'));
  });
});
