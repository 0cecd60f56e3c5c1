import { join } from 'node:path';
import { readKeyFile } from '../../apps/gateway/src/config/key-file';
import { QUOTE_VALIDITY_MS, QuoteIds } from '../../apps/gateway/src/currency-conversion/quote-ids';
import { SimulatedCurrencyConversion } from '@gateway/acquirer';
import { merchantClient, orderIds, useGateway } from '../support/gateway-process';

/**
 * Taking a Payment Options Inquiry quote up (behaviour notes; docs/currency-conversion.md): an
 * AUTHORIZE or PAY citing `currencyConversion.requestId` with uptake ACCEPTED settles at the
 * quoted terms, within 30 minutes, for one order; anything else is INVALID on the requestId.
 */
const EUR_CARD = '4012000033330026';
const card = { number: EUR_CARD, expiry: { month: '1', year: '39' } };
const accepted = { uptake: 'ACCEPTED', payerAmount: '94.76', payerCurrency: 'EUR' };

const under = useGateway();
const orders = orderIds('dcc');

/** A fresh offer for 100.00 USD paid with the EUR card. */
async function offer(): Promise<{ requestId: string } & Record<string, unknown>> {
  const answer = await under.api.post('/paymentOptionsInquiry', {
    order: { amount: '100.00', currency: 'USD' },
    sourceOfFunds: { type: 'CARD', provided: { card: { number: EUR_CARD } } },
  });
  expect(answer.status).toBe(200);
  return answer.body.currencyConversion;
}
const quote = async () => (await offer()).requestId;

const payment = (requestId: string, extra: Record<string, unknown> = {}, amount = '100.00') => ({
  apiOperation: 'PAY',
  order: { amount, currency: 'USD' },
  sourceOfFunds: { type: 'CARD', provided: { card } },
  currencyConversion: { ...accepted, requestId },
  ...extra,
});

/** A refusal on the requestId, with no order stored. */
async function expectRefused(order: string, answer: { status: number; body: any }) {
  expect(answer.status).toBe(400);
  expect(answer.body.error).toMatchObject({
    cause: 'INVALID_REQUEST',
    field: 'currencyConversion.requestId',
    validationType: 'INVALID',
  });
  expect((await under.api.get(`/order/${order}`)).status).toBe(404);
}

describe('taking a quote up', () => {
  it('PAY with the quote settles in EUR at 0.9476: the response and GET show the conversion', async () => {
    const { requestId, ...terms } = await offer();
    const order = orders();
    const paid = await under.api.put(`/order/${order}/transaction/1`, payment(requestId));
    expect(paid.status).toBe(201);
    expect(paid.body.response.gatewayCode).toBe('APPROVED');
    // The quote's full terms; the spec's response shows no requestId.
    const conversion = { ...terms, uptake: 'ACCEPTED' };
    expect(conversion).toMatchObject({ payerAmount: 94.76, payerCurrency: 'EUR' });
    expect(paid.body.currencyConversion).toEqual(conversion);
    expect(paid.body.transaction).toMatchObject({ amount: 100, currency: 'USD' });
    const read = await under.api.get(`/order/${order}/transaction/1`);
    expect(read.body.currencyConversion).toEqual(conversion);
    // A retry is the same bytes, and takes nothing up again.
    const retry = await under.api.put(`/order/${order}/transaction/1`, payment(requestId));
    expect(retry.text).toBe(paid.text);
  });

  it('a refund of the converted payment shows what the payer gets back, at the accepted rate', async () => {
    const order = orders();
    expect(
      (await under.api.put(`/order/${order}/transaction/1`, payment(await quote()))).status,
    ).toBe(201);
    const refund = (id: string, amount: string) =>
      under.api.put(`/order/${order}/transaction/${id}`, {
        apiOperation: 'REFUND',
        transaction: { amount, currency: 'USD' },
      });
    const part = await refund('r1', '50.01');
    expect(part.status).toBe(201);
    expect(part.body.transaction).toMatchObject({ amount: 50.01, currency: 'USD', type: 'REFUND' });
    // 50.01 × 0.9476 = 47.389476 → 47.39 EUR
    expect(part.body.currencyConversion).toEqual({
      payerAmount: 47.39,
      payerCurrency: 'EUR',
      payerExchangeRate: 0.9476,
      provider: 'DCC_PROVIDER_A',
      uptake: 'ACCEPTED',
    });
    const rest = await refund('r2', '49.99');
    expect(rest.body.currencyConversion.payerAmount).toBe(47.37);
    const read = await under.api.get(`/order/${order}/transaction/r1`);
    expect(read.text).toBe(part.text);
  });

  it('AUTHORIZE takes a quote up too', async () => {
    const answer = await under.api.put(
      `/order/${orders()}/transaction/1`,
      payment(await quote(), { apiOperation: 'AUTHORIZE' }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.currencyConversion).toMatchObject({
      payerAmount: 94.76,
      uptake: 'ACCEPTED',
    });
  });

  it('the same quote on another order is INVALID, nothing stored', async () => {
    const requestId = await quote();
    expect(
      (await under.api.put(`/order/${orders()}/transaction/1`, payment(requestId))).status,
    ).toBe(201);
    const other = orders();
    await expectRefused(
      other,
      await under.api.put(`/order/${other}/transaction/1`, payment(requestId)),
    );
  });

  it('one quote on two orders at once: exactly one wins', async () => {
    const requestId = await quote();
    const [a, b] = [orders(), orders()];
    const answers = await Promise.all(
      [a, b].map((order) => under.api.put(`/order/${order}/transaction/1`, payment(requestId))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    const loser = answers[0].status === 400 ? a : b;
    await expectRefused(loser, answers[0].status === 400 ? answers[0] : answers[1]);
  });

  it('a tampered or unknown requestId is INVALID', async () => {
    const requestId = await quote();
    for (const id of [`${requestId.slice(0, -1)}A`, 'no-such-quote']) {
      const order = orders();
      await expectRefused(order, await under.api.put(`/order/${order}/transaction/1`, payment(id)));
    }
  });

  it('a quote for another amount is INVALID; a payer amount not quoted is INVALID on it', async () => {
    const requestId = await quote();
    const order = orders();
    await expectRefused(
      order,
      await under.api.put(`/order/${order}/transaction/1`, payment(requestId, {}, '100.01')),
    );
    const payerAmount = await under.api.put(`/order/${orders()}/transaction/1`, {
      ...payment(requestId),
      currencyConversion: { ...accepted, payerAmount: '94.77', requestId },
    });
    expect(payerAmount.status).toBe(400);
    expect(payerAmount.body.error).toMatchObject({ field: 'currencyConversion.payerAmount' });
  });

  it('an expired quote (issued 30 minutes ago) is INVALID', async () => {
    // Issued by the gateway's own key (its data directory), 30 minutes back: no waiting.
    const key = readKeyFile(join(under.gateway.dataDir, 'card-fingerprint.key'))!;
    const request = { merchantId: 'TESTMERCHANT', amount: 100_000, currency: 'USD' };
    const offer = new SimulatedCurrencyConversion().quote({ ...request, cardNumber: EUR_CARD })!;
    const issuedAt = new Date(Date.now() - QUOTE_VALIDITY_MS - 1000);
    const ids = new QuoteIds(key);
    const expired = ids.issue({ ...request, offer }, issuedAt);
    const fresh = ids.issue({ ...request, offer }, new Date());
    const order = orders();
    const answer = await under.api.put(`/order/${order}/transaction/1`, payment(expired));
    await expectRefused(order, answer);
    expect(answer.body.error.explanation).toContain('expired');
    // The same key, issued now: the gateway takes it (the test's quote is the gateway's own).
    expect((await under.api.put(`/order/${orders()}/transaction/1`, payment(fresh))).status).toBe(
      201,
    );
  });

  it('the card may come from a token; a deleted token is INVALID on sourceOfFunds.token first', async () => {
    const token = (await under.api.post('/token', { sourceOfFunds: { provided: { card } } })).body
      .token;
    const byToken = { sourceOfFunds: { type: 'CARD', token } };
    const paid = await under.api.put(
      `/order/${orders()}/transaction/1`,
      payment(await quote(), byToken),
    );
    expect(paid.status).toBe(201);
    expect(paid.body.currencyConversion).toMatchObject({ payerAmount: 94.76, uptake: 'ACCEPTED' });
    expect((await under.api.delete(`/token/${token}`)).status).toBe(200);
    const gone = await under.api.put(
      `/order/${orders()}/transaction/1`,
      payment(await quote(), byToken),
    );
    expect(gone.status).toBe(400);
    expect(gone.body.error.field).toBe('sourceOfFunds.token');
  });

  it("another merchant's quote is INVALID", async () => {
    const other = merchantClient(under.gateway, 'TESTOTHER');
    const order = orders();
    const answer = await other.put(`/order/${order}/transaction/1`, payment(await quote()));
    expect(answer.status).toBe(400);
    expect(answer.body.error.field).toBe('currencyConversion.requestId');
  });
});
