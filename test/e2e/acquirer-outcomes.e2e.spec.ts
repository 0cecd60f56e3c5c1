import { authorizeBody, useGateway, orderIds } from '../support/gateway-process';

const under = useGateway();
const newOrder = orderIds('acq');

const giftCardPay = (amount: string, extra: Record<string, unknown> = {}) => ({
  apiOperation: 'PAY',
  order: { amount, currency: 'USD', ...extra },
  sourceOfFunds: {
    type: 'GIFT_CARD',
    provided: { giftCard: { number: '6012345678901234', pin: '1234' } },
  },
});

describe('the simulated acquirer over HTTP', () => {
  it('spends a gift card balance, shows what is left, and never the number or PIN', async () => {
    const first = await under.api.put(`/order/${newOrder()}/transaction/p1`, giftCardPay('120.00'));
    expect(first.body).toMatchObject({
      result: 'SUCCESS',
      giftCard: { availableBalance: { amount: 380, currency: 'USD' } },
    });
    expect(first.body.sourceOfFunds.provided.giftCard).toEqual({ number: 'xxxxxxxxxxxx1234' });
    expect(first.text).not.toContain('6012345678901234');

    const tooMuch = await under.api.put(
      `/order/${newOrder()}/transaction/p1`,
      giftCardPay('400.00'),
    );
    expect(tooMuch.body).toMatchObject({
      result: 'FAILURE',
      response: { gatewayCode: 'INSUFFICIENT_FUNDS' },
      order: { status: 'FAILED' },
    });

    const partial = await under.api.put(
      `/order/${newOrder()}/transaction/p1`,
      giftCardPay('400.00', { acceptPartialAmount: true }),
    );
    expect(partial.body).toMatchObject({
      response: { gatewayCode: 'PARTIALLY_APPROVED' },
      transaction: { amount: 380, requestedAmount: 400 },
      order: { totalCapturedAmount: 380 },
      giftCard: { availableBalance: { amount: 0 } },
    });
  });

  it('partial approval of a card needs acceptPartialAmount (amounts ending in .777)', async () => {
    const declined = await under.api.put(
      `/order/${newOrder()}/transaction/a1`,
      authorizeBody('10.777'),
    );
    expect(declined.body).toMatchObject({
      result: 'FAILURE',
      response: { gatewayCode: 'DECLINED' },
    });
    const body = authorizeBody('10.777');
    const partial = await under.api.put(`/order/${newOrder()}/transaction/a1`, {
      ...body,
      order: { ...body.order, acceptPartialAmount: true },
    });
    expect(partial.body).toMatchObject({
      result: 'SUCCESS',
      response: { gatewayCode: 'PARTIALLY_APPROVED' },
      transaction: { amount: 5.388, requestedAmount: 10.777 },
      order: { totalAuthorizedAmount: 5.388 },
    });
  });

  it('echoes currency conversion with its uptake, as numbers', async () => {
    const response = await under.api.put(
      `/order/${newOrder()}/transaction/a1`,
      authorizeBody(
        '100.00',
        { month: '1', year: '39' },
        {
          currencyConversion: {
            payerAmount: '92.345',
            payerCurrency: 'EUR',
            payerExchangeRate: '0.92345',
            provider: 'DCC_PROVIDER_A',
            uptake: 'ACCEPTED',
          },
        },
      ),
    );
    expect(response.body.currencyConversion).toEqual({
      payerAmount: 92.345,
      payerCurrency: 'EUR',
      payerExchangeRate: 0.92345,
      provider: 'DCC_PROVIDER_A',
      uptake: 'ACCEPTED',
    });
    const same = await under.api.put(
      `/order/${newOrder()}/transaction/a1`,
      authorizeBody(
        '1.00',
        { month: '1', year: '39' },
        { currencyConversion: { payerCurrency: 'USD', provider: 'DCC_PROVIDER_A' } },
      ),
    );
    expect(same.body.error).toMatchObject({
      field: 'currencyConversion.payerCurrency',
      validationType: 'INVALID',
    });
  });

  it('answers a void with the acquirer authorization response', async () => {
    const order = newOrder();
    await under.api.put(`/order/${order}/transaction/a1`, authorizeBody('10.00'));
    const voided = await under.api.put(`/order/${order}/transaction/v1`, {
      apiOperation: 'VOID',
      transaction: { targetTransactionId: 'a1' },
    });
    expect(voided.body.authorizationResponse).toMatchObject({
      responseCode: '00',
      stan: expect.stringMatching(/^\d{6}$/),
      date: expect.stringMatching(/^\d{4}$/),
      time: expect.stringMatching(/^\d{6}$/),
    });
  });

  it('card brand, scheme and funding method come from the BIN', async () => {
    const visa = authorizeBody('1.00');
    visa.sourceOfFunds.provided.card.number = '4508750015741019';
    const response = await under.api.put(`/order/${newOrder()}/transaction/a1`, visa);
    expect(response.body.sourceOfFunds.provided.card).toMatchObject({
      brand: 'VISA',
      scheme: 'VISA',
      fundingMethod: 'DEBIT',
      number: '450875xxxxxx1019',
    });
  });

  it('a risk-rejected payer is BLOCKED with risk REJECTED', async () => {
    const response = await under.api.put(
      `/order/${newOrder()}/transaction/a1`,
      authorizeBody(
        '1.00',
        { month: '1', year: '39' },
        { customer: { email: 'risk-reject@example.com' } },
      ),
    );
    expect(response.body).toMatchObject({
      result: 'FAILURE',
      response: { gatewayCode: 'BLOCKED' },
      risk: { response: { gatewayCode: 'REJECTED' } },
    });
  });
});
