import { resolve } from 'node:path';
import {
  merchantClient,
  orderIds,
  startGateway,
  useGateway,
  type ApiResponse,
} from '../support/gateway-process';
import { expectRefused } from '../support/invalid-request';
import { authenticatePayerBody, card, initiateAuthenticationBody } from '../support/three-d-secure';

/**
 * Agreements over HTTP against the built gateway (issue 15, item 3; behaviour notes,
 * "Agreements"): a first payment establishes the agreement, later ones cite it without the
 * payer. Run `npm run build` first.
 */
type Api = ReturnType<typeof merchantClient>;
const newOrder = orderIds('agr');
const newAgreement = orderIds('agreement');

/** Frictionless 3-D Secure, AUTHENTICATION_SUCCESSFUL (behaviour notes, test cards). */
const AUTHENTICATED_CARD = '5123456789012346';
const TODAY = new Date().toISOString().slice(0, 10);

const payBody = (agreement: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiOperation: 'PAY',
  agreement,
  order: { amount: '25.00', currency: 'USD' },
  sourceOfFunds: { type: 'CARD', provided: { card: card(AUTHENTICATED_CARD) } },
  ...extra,
});

/** A payment the merchant makes alone: the card as stored, no security code. */
const laterPayment = (agreement: Record<string, unknown>, amount = '25.00') =>
  payBody(agreement, {
    order: { amount, currency: 'USD' },
    sourceOfFunds: {
      type: 'CARD',
      provided: { card: { number: AUTHENTICATED_CARD, expiry: { month: '1', year: '39' } } },
    },
  });

/** Nothing stored: the order of a refused first transaction does not exist. */
async function expectNoOrder(api: Api, order: string) {
  expect((await api.get(`/order/${order}`)).status).toBe(404);
}

/** A first payment with 3-D Secure: INITIATE_AUTHENTICATION, AUTHENTICATE_PAYER, PAY citing it. */
async function authenticatedFirstPayment(api: Api, agreement: Record<string, unknown>) {
  const order = newOrder();
  await api.put(`/order/${order}/transaction/3ds`, initiateAuthenticationBody(AUTHENTICATED_CARD));
  const payer = await api.put(
    `/order/${order}/transaction/3ds`,
    authenticatePayerBody(undefined, { order: { amount: '25.00', currency: 'USD' } }),
  );
  expect(payer.body.order.authenticationStatus).toBe('AUTHENTICATION_SUCCESSFUL');
  const body = payBody(agreement, { authentication: { transactionId: '3ds' } });
  const paid = await api.put(`/order/${order}/transaction/pay-1`, body);
  expect(paid.body).toMatchObject({
    result: 'SUCCESS',
    transaction: { authenticationStatus: 'AUTHENTICATION_SUCCESSFUL' },
  });
  return { order, body, paid };
}

/** A merchant-initiated authentication on a new order, claiming `exemption` under the agreement. */
async function exemptAuthentication(api: Api, id: string, exemption: string, amount: string) {
  const order = newOrder();
  const merchantRequested = { acceptVersions: '3DS2', channel: 'MERCHANT_REQUESTED' };
  await api.put(
    `/order/${order}/transaction/3ds`,
    initiateAuthenticationBody(AUTHENTICATED_CARD, { authentication: merchantRequested }),
  );
  return api.put(`/order/${order}/transaction/3ds`, {
    apiOperation: 'AUTHENTICATE_PAYER',
    agreement: { id },
    authentication: { channel: 'MERCHANT_REQUESTED', psd2: { exemption } },
    order: { amount, currency: 'USD' },
  });
}

describe('agreements over HTTP', () => {
  const under = useGateway();

  it('a first payment with 3-D Secure, then three later payments without security code or 3-D Secure', async () => {
    const id = newAgreement();
    const terms = { expiryDate: '2030-12-31', id, recurring: { daysBetweenPayments: 30 } };
    const { order, body, paid } = await authenticatedFirstPayment(under.api, {
      ...terms,
      type: 'RECURRING',
    });
    expect(paid.body.agreement).toEqual({ ...terms, type: 'RECURRING' });
    const retried = await under.api.put(`/order/${order}/transaction/pay-1`, body);
    expect(retried.text).toBe(paid.text);
    for (let n = 0; n < 3; n++) {
      const later = newOrder();
      const answer = await under.api.put(`/order/${later}/transaction/pay`, laterPayment({ id }));
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        result: 'SUCCESS',
        agreement: { ...terms, type: 'RECURRING' },
        order: { status: 'CAPTURED' },
      });
      expect(answer.body.response.cardSecurityCode).toEqual({ gatewayCode: 'NOT_PRESENT' });
      expect(answer.body.transaction.authenticationStatus).toBeUndefined();
      const retrieved = await under.api.get(`/order/${later}/transaction/pay`);
      expect(retrieved.body.agreement).toEqual({ ...terms, type: 'RECURRING' });
    }
  });

  it('repeating the type is accepted; changing it is INVALID on agreement.type, nothing stored', async () => {
    const id = newAgreement();
    await authenticatedFirstPayment(under.api, { id, type: 'UNSCHEDULED' });
    const same = await under.api.put(
      `/order/${newOrder()}/transaction/pay`,
      laterPayment({ id, type: 'UNSCHEDULED' }),
    );
    expect(same.body.result).toBe('SUCCESS');
    const order = newOrder();
    const changed = await under.api.put(
      `/order/${order}/transaction/pay`,
      laterPayment({ id, type: 'INSTALLMENT' }),
    );
    expectRefused(changed, 'agreement.type');
    await expectNoOrder(under.api, order);
  });

  it('an unknown agreement cited without a type is INVALID on agreement.type', async () => {
    const order = newOrder();
    const answer = await under.api.put(
      `/order/${order}/transaction/pay`,
      laterPayment({ id: newAgreement() }),
    );
    expectRefused(answer, 'agreement.type');
    await expectNoOrder(under.api, order);
  });

  it("another merchant's agreement is unknown: an agreement is the merchant's own", async () => {
    const id = newAgreement();
    await authenticatedFirstPayment(under.api, { id, type: 'RECURRING' });
    const other = merchantClient(under.gateway, 'TESTOTHER');
    const answer = await other.put(`/order/${newOrder()}/transaction/pay`, laterPayment({ id }));
    expectRefused(answer, 'agreement.type');
  });

  it('a declined first payment establishes nothing', async () => {
    const id = newAgreement();
    const declined = await under.api.put(
      `/order/${newOrder()}/transaction/pay`,
      payBody(
        { id, type: 'RECURRING' },
        {
          sourceOfFunds: {
            type: 'CARD',
            provided: { card: { ...card(AUTHENTICATED_CARD), expiry: { month: '5', year: '39' } } },
          },
        },
      ),
    );
    expect(declined.body.result).toBe('FAILURE');
    const later = await under.api.put(`/order/${newOrder()}/transaction/pay`, laterPayment({ id }));
    expectRefused(later, 'agreement.type');
  });

  it('a VERIFY may establish an agreement that payments then cite', async () => {
    const id = newAgreement();
    const verified = await under.api.put(`/order/${newOrder()}/transaction/verify`, {
      apiOperation: 'VERIFY',
      agreement: { id, type: 'UNSCHEDULED', recurring: { daysBetweenPayments: '14' } },
      order: { currency: 'USD' },
      sourceOfFunds: { type: 'CARD', provided: { card: card(AUTHENTICATED_CARD) } },
    });
    // An integer sent as a string (as some SDKs do) is shown as the number it is.
    const agreement = { id, recurring: { daysBetweenPayments: 14 }, type: 'UNSCHEDULED' };
    expect(verified.body).toMatchObject({ result: 'SUCCESS', agreement });
    const later = await under.api.put(`/order/${newOrder()}/transaction/pay`, laterPayment({ id }));
    expect(later.body).toMatchObject({ result: 'SUCCESS', agreement });
  });

  it('a series on a card token: the first payment with a fresh security code, later ones with the token alone', async () => {
    const saved = await under.api.post('/token', {
      sourceOfFunds: {
        type: 'CARD',
        provided: { card: { number: AUTHENTICATED_CARD, expiry: { month: '1', year: '39' } } },
      },
    });
    const token: string = saved.body.token;
    const id = newAgreement();
    const withToken = (agreement: Record<string, unknown>, provided?: Record<string, unknown>) =>
      payBody(agreement, {
        sourceOfFunds: { type: 'CARD', token, ...(provided ? { provided } : {}) },
      });
    const first = await under.api.put(
      `/order/${newOrder()}/transaction/pay`,
      withToken({ id, type: 'UNSCHEDULED' }, { card: { securityCode: '100' } }),
    );
    expect(first.body).toMatchObject({ result: 'SUCCESS', sourceOfFunds: { token } });
    const later = await under.api.put(`/order/${newOrder()}/transaction/pay`, withToken({ id }));
    expect(later.body).toMatchObject({
      result: 'SUCCESS',
      agreement: { id, type: 'UNSCHEDULED' },
      sourceOfFunds: { token },
      response: { cardSecurityCode: { gatewayCode: 'NOT_PRESENT' } },
    });
  });

  describe('PSD2 exemptions', () => {
    it('RECURRING_PAYMENT is accepted on an authenticated agreement at the first amount, INVALID on order.amount at another', async () => {
      const id = newAgreement();
      await authenticatedFirstPayment(under.api, { id, type: 'RECURRING' });
      const fixed = await exemptAuthentication(under.api, id, 'RECURRING_PAYMENT', '25.00');
      expect(fixed.status).toBe(201);
      expect(fixed.body).toMatchObject({
        agreement: { id, type: 'RECURRING' },
        authentication: { psd2: { exemption: 'RECURRING_PAYMENT' } },
      });
      const varied = await exemptAuthentication(under.api, id, 'RECURRING_PAYMENT', '26.00');
      expectRefused(varied, 'order.amount');
      const merchant = await exemptAuthentication(
        under.api,
        id,
        'MERCHANT_INITIATED_TRANSACTION',
        '26.00',
      );
      expect(merchant.status).toBe(201);
    });

    it.each(['RECURRING_PAYMENT', 'MERCHANT_INITIATED_TRANSACTION'])(
      '%s is INVALID on authentication.psd2.exemption when the first payment was not authenticated',
      async (exemption) => {
        const id = newAgreement();
        const first = await under.api.put(
          `/order/${newOrder()}/transaction/pay`,
          payBody({ id, type: 'RECURRING' }),
        );
        expect(first.body.result).toBe('SUCCESS');
        const answer = await exemptAuthentication(under.api, id, exemption, '25.00');
        expectRefused(answer, 'authentication.psd2.exemption');
      },
    );

    it('an agreement exemption without agreement.id is INVALID on authentication.psd2.exemption', async () => {
      const order = newOrder();
      await under.api.put(
        `/order/${order}/transaction/3ds`,
        initiateAuthenticationBody(AUTHENTICATED_CARD, {
          authentication: { acceptVersions: '3DS2', channel: 'MERCHANT_REQUESTED' },
        }),
      );
      const unnamed = await under.api.put(`/order/${order}/transaction/3ds`, {
        apiOperation: 'AUTHENTICATE_PAYER',
        authentication: {
          channel: 'MERCHANT_REQUESTED',
          psd2: { exemption: 'MERCHANT_INITIATED_TRANSACTION' },
        },
        order: { amount: '25.00', currency: 'USD' },
      });
      expectRefused(unnamed, 'authentication.psd2.exemption');
    });
  });

  describe('first payments sent at once', () => {
    it('of one type: both are approved, the agreement is established once, by the first', async () => {
      const id = newAgreement();
      const [a, b] = await Promise.all(
        [30, 7].map((days) =>
          under.api.put(
            `/order/${newOrder()}/transaction/pay`,
            payBody({ id, type: 'RECURRING', recurring: { daysBetweenPayments: days } }),
          ),
        ),
      );
      expect([a.body.result, b.body.result]).toEqual(['SUCCESS', 'SUCCESS']);
      const later = await under.api.put(
        `/order/${newOrder()}/transaction/pay`,
        laterPayment({ id }),
      );
      const established = later.body.agreement;
      expect([30, 7]).toContain(established.recurring.daysBetweenPayments);
      // The second ran as a later payment of the agreement the first established.
      expect(a.body.agreement).toEqual(established);
      expect(b.body.agreement).toEqual(established);
    });

    it('of two types: one is approved, the other INVALID on agreement.type with nothing stored', async () => {
      const id = newAgreement();
      const orders = [newOrder(), newOrder()];
      const answers = await Promise.all(
        (['RECURRING', 'INSTALLMENT'] as const).map((type, i) =>
          under.api.put(`/order/${orders[i]}/transaction/pay`, payBody({ id, type })),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([201, 400]);
      const loser = answers.findIndex((a) => a.status === 400);
      expectRefused(answers[loser], 'agreement.type');
      await expectNoOrder(under.api, orders[loser]);
    });
  });
});

describe('an agreement past its expiry date', () => {
  it('is INVALID on agreement.id the day after (a retry still gets its answer); a first payment already past it on agreement.expiryDate', async () => {
    const today = await startGateway();
    const id = newAgreement();
    const firstPath = `/order/${newOrder()}/transaction/pay`;
    const firstBody = payBody({ id, type: 'INSTALLMENT', expiryDate: TODAY });
    let first: ApiResponse;
    try {
      const api = merchantClient(today);
      first = await api.put(firstPath, firstBody);
      expect(first.body.result).toBe('SUCCESS');
      const onTheDay = await api.put(`/order/${newOrder()}/transaction/pay`, laterPayment({ id }));
      expect(onTheDay.body.result).toBe('SUCCESS');
    } finally {
      await today.stop();
    }
    const tomorrow = await startGateway(today.dataDir, {
      NODE_OPTIONS: `--require ${resolve(__dirname, '../support/clock-ahead.js')}`,
      CLOCK_AHEAD_DAYS: '1',
    });
    try {
      const api = merchantClient(tomorrow);
      const order = newOrder();
      const after = await api.put(`/order/${order}/transaction/pay`, laterPayment({ id }));
      expectRefused(after, 'agreement.id');
      await expectNoOrder(api, order);
      // The agreement is checked after the replay: the first payment again gets its original bytes.
      expect((await api.put(firstPath, firstBody)).text).toBe(first.text);
      const expiredAlready = await api.put(
        `/order/${newOrder()}/transaction/pay`,
        payBody({ id: newAgreement(), type: 'INSTALLMENT', expiryDate: TODAY }),
      );
      expectRefused(expiredAlready, 'agreement.expiryDate');
    } finally {
      await tomorrow.stop();
    }
  });
});
