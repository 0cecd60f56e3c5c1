import { authorizeBody, useGateway, orderIds } from '../support/gateway-process';
import { ACH_ACCOUNT } from '../support/payment-data';

const under = useGateway();
const newOrder = orderIds('order');

describe('money flows over HTTP', () => {
  it('AUTHORIZE, CAPTURE, REFUND, then retrieve the order (the README curl session)', async () => {
    const order = newOrder();
    const auth = await under.api.put(`/order/${order}/transaction/auth-1`, {
      ...authorizeBody('100.00'),
      correlationId: 'corr-1',
    });
    expect(auth.status).toBe(201);
    expect(auth.headers.get('content-type')).toMatch(/^application\/json/);
    expect(auth.body).toMatchObject({
      result: 'SUCCESS',
      merchant: 'TESTMERCHANT',
      version: '100',
      gatewayEntryPoint: 'WEB_SERVICES_API',
      correlationId: 'corr-1',
      response: { gatewayCode: 'APPROVED', cardSecurityCode: { gatewayCode: 'MATCH' } },
      order: {
        id: order,
        status: 'AUTHORIZED',
        amount: 100,
        currency: 'USD',
        totalAuthorizedAmount: 100,
        totalCapturedAmount: 0,
        totalRefundedAmount: 0,
      },
      transaction: { id: 'auth-1', type: 'AUTHORIZATION', amount: 100, currency: 'USD' },
      sourceOfFunds: {
        type: 'CARD',
        provided: { card: { number: '512345xxxxxx0008', brand: 'MASTERCARD' } },
      },
    });
    expect(auth.body.timeOfRecord).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const capture = await under.api.put(`/order/${order}/transaction/cap-1`, {
      apiOperation: 'CAPTURE',
      transaction: { amount: '60.50', currency: 'USD' },
    });
    expect(capture.status).toBe(201);
    expect(capture.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'PARTIALLY_CAPTURED', totalCapturedAmount: 60.5 },
      transaction: { type: 'CAPTURE', amount: 60.5 },
    });

    const refund = await under.api.put(`/order/${order}/transaction/ref-1`, {
      apiOperation: 'REFUND',
      transaction: { amount: '10.125', currency: 'USD' },
    });
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({
      order: { status: 'PARTIALLY_REFUNDED', totalRefundedAmount: 10.125 },
      transaction: { type: 'REFUND', amount: 10.125, targetTransactionId: 'cap-1' },
    });

    const retrieved = await under.api.get(`/order/${order}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body).toMatchObject({
      id: order,
      status: 'PARTIALLY_REFUNDED',
      totalAuthorizedAmount: 100,
      totalCapturedAmount: 60.5,
      totalRefundedAmount: 10.125,
      result: 'SUCCESS',
    });
    expect(
      retrieved.body.transaction.map((t: { transaction: { type: string } }) => t.transaction.type),
    ).toEqual(['AUTHORIZATION', 'CAPTURE', 'REFUND']);
  });

  it('PAY captures at once; VOID of the payment cancels the order', async () => {
    const order = newOrder();
    const pay = await under.api.put(`/order/${order}/transaction/pay-1`, {
      ...authorizeBody('25.00'),
      apiOperation: 'PAY',
    });
    expect(pay.body).toMatchObject({
      order: { status: 'CAPTURED', totalAuthorizedAmount: 25, totalCapturedAmount: 25 },
      transaction: { type: 'PAYMENT' },
    });
    const voided = await under.api.put(`/order/${order}/transaction/void-1`, {
      apiOperation: 'VOID',
      transaction: { targetTransactionId: 'pay-1' },
    });
    expect(voided.status).toBe(201);
    expect(voided.body).toMatchObject({
      order: { status: 'CANCELLED', totalCapturedAmount: 0 },
      transaction: { type: 'VOID_PAYMENT', targetTransactionId: 'pay-1', amount: 25 },
    });
  });

  it('VOID of an authorization cancels it, and a later capture is refused with nothing stored', async () => {
    const order = newOrder();
    await under.api.put(`/order/${order}/transaction/a`, authorizeBody('10.00'));
    const voided = await under.api.put(`/order/${order}/transaction/v`, {
      apiOperation: 'VOID',
      transaction: { targetTransactionId: 'a' },
    });
    expect(voided.body).toMatchObject({
      order: { status: 'CANCELLED', totalAuthorizedAmount: 0 },
      transaction: { type: 'VOID_AUTHORIZATION' },
    });
    const capture = await under.api.put(`/order/${order}/transaction/c`, {
      apiOperation: 'CAPTURE',
      transaction: { amount: '1.00', currency: 'USD' },
    });
    expect(capture.status).toBe(400);
    expect(capture.body).toMatchObject({
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', field: 'transaction.amount', validationType: 'INVALID' },
    });
    const after = await under.api.get(`/order/${order}`);
    expect(after.body.transaction).toHaveLength(2);
  });

  it('VERIFY leaves a verified order with no money', async () => {
    const order = newOrder();
    const verify = await under.api.put(`/order/${order}/transaction/v1`, {
      apiOperation: 'VERIFY',
      order: { currency: 'USD' },
      sourceOfFunds: authorizeBody().sourceOfFunds,
    });
    expect(verify.status).toBe(201);
    expect(verify.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'VERIFIED', amount: 0 },
      transaction: { type: 'VERIFICATION', amount: 0 },
    });
  });

  it.each([
    ['05', '39', 'DECLINED', 'FAILURE'],
    ['04', '27', 'EXPIRED_CARD', 'FAILURE'],
    ['08', '28', 'TIMED_OUT', 'FAILURE'],
    ['01', '37', 'ACQUIRER_SYSTEM_ERROR', 'FAILURE'],
    ['02', '37', 'UNSPECIFIED_FAILURE', 'FAILURE'],
    ['05', '37', 'UNKNOWN', 'UNKNOWN'],
  ])(
    'expiry %s/%s answers 201 %s with result %s, and the order is FAILED with no money',
    async (month, year, gatewayCode, result) => {
      const response = await under.api.put(
        `/order/${newOrder()}/transaction/t1`,
        authorizeBody('10.00', { month, year }),
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        result,
        response: { gatewayCode },
        order: { status: 'FAILED', totalAuthorizedAmount: 0 },
      });
    },
  );

  it('the same request again returns the original response byte for byte and moves nothing twice', async () => {
    const order = newOrder();
    const body = { ...authorizeBody('42.00'), correlationId: 'same' };
    const first = await under.api.put(`/order/${order}/transaction/t1`, body);
    const second = await under.api.put(`/order/${order}/transaction/t1`, body);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    const retrieved = await under.api.get(`/order/${order}`);
    expect(retrieved.body.transaction).toHaveLength(1);
    expect(retrieved.body.totalAuthorizedAmount).toBe(42);
  });

  it('the same transaction id with a different body is refused, naming the transaction id', async () => {
    const order = newOrder();
    await under.api.put(`/order/${order}/transaction/t1`, authorizeBody('42.00'));
    const other = await under.api.put(`/order/${order}/transaction/t1`, authorizeBody('43.00'));
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field: 'transaction.id' });
  });

  it('retrieve transaction has the shape of the response that created it', async () => {
    const order = newOrder();
    const put = await under.api.put(`/order/${order}/transaction/t1`, authorizeBody('7.00'));
    const get = await under.api.get(`/order/${order}/transaction/t1`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(put.body);
  });

  it('concurrent captures on one order never capture more than was authorized', async () => {
    const order = newOrder();
    await under.api.put(`/order/${order}/transaction/a`, authorizeBody('10.00'));
    const captures = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        under.api.put(`/order/${order}/transaction/c${i}`, {
          apiOperation: 'CAPTURE',
          transaction: { amount: '3.00', currency: 'USD' },
        }),
      ),
    );
    expect(captures.filter((c) => c.status === 201)).toHaveLength(3);
    expect(captures.filter((c) => c.status === 400)).toHaveLength(5);
    const retrieved = await under.api.get(`/order/${order}`);
    expect(retrieved.body).toMatchObject({ totalCapturedAmount: 9, status: 'PARTIALLY_CAPTURED' });
  });

  it.each(['AUTHORIZE', 'PAY'])(
    '%s records transaction.reference and answers it, then and on retrieval',
    async (apiOperation) => {
      const order = newOrder();
      const sent = await under.api.put(`/order/${order}/transaction/r1`, {
        ...authorizeBody('7.00'),
        apiOperation,
        transaction: { reference: 'merchant-ref-7' },
      });
      expect(sent.status).toBe(201);
      expect(sent.body.transaction.reference).toBe('merchant-ref-7');
      const retrieved = await under.api.get(`/order/${order}/transaction/r1`);
      expect(retrieved.body.transaction.reference).toBe('merchant-ref-7');
    },
  );

  it('echoes the billing address with street2 joined into street', async () => {
    const body = authorizeBody(
      '5.00',
      { month: '1', year: '39' },
      {
        billing: {
          address: { street: '1 Alpha St', street2: 'Flat 2', city: 'Town', country: 'USA' },
        },
      },
    );
    const response = await under.api.put(`/order/${newOrder()}/transaction/t1`, body);
    expect(response.body.billing).toEqual({
      address: { street: '1 Alpha St Flat 2', city: 'Town', country: 'USA' },
    });
    expect(response.body.response.cardholderVerification.avs.gatewayCode).toBe('ADDRESS_MATCH');
  });

  it('refuses sub-merchant data after the first transaction, naming it, and stores nothing', async () => {
    const order = newOrder();
    await under.api.put(`/order/${order}/transaction/p1`, {
      ...authorizeBody('20.00'),
      apiOperation: 'PAY',
    });
    const refund = await under.api.put(`/order/${order}/transaction/r1`, {
      apiOperation: 'REFUND',
      order: { subMerchant: { address: { city: 'Town' } } },
      transaction: { amount: '1.00', currency: 'USD' },
    });
    expect(refund.status).toBe(400);
    expect(refund.body.error).toMatchObject({
      field: 'order.subMerchant',
      validationType: 'INVALID',
    });
    expect((await under.api.get(`/order/${order}`)).body.transaction).toHaveLength(1);
  });

  it('pays from an ACH account, recording and showing only the masked account number', async () => {
    const order = newOrder();
    const ach = ACH_ACCOUNT;
    const pay = await under.api.put(`/order/${order}/transaction/p1`, {
      apiOperation: 'PAY',
      order: { amount: '12.00', currency: 'USD' },
      sourceOfFunds: { type: 'ACH', provided: { ach } },
    });
    expect(pay.status).toBe(201);
    expect(pay.body).toMatchObject({
      result: 'SUCCESS',
      response: { gatewayCode: 'APPROVED_PENDING_SETTLEMENT' },
      order: { status: 'CAPTURED', totalCapturedAmount: 12 },
      sourceOfFunds: {
        type: 'ACH',
        provided: { ach: { ...ach, bankAccountNumber: 'xxxxxxxx6789' } },
      },
    });
    expect(JSON.stringify((await under.api.get(`/order/${order}`)).body)).not.toContain(
      '000123456789',
    );
  });

  it('refuses a source type without its details, naming the missing group', async () => {
    const response = await under.api.put(`/order/${newOrder()}/transaction/p1`, {
      apiOperation: 'PAY',
      order: { amount: '12.00', currency: 'USD' },
      sourceOfFunds: { type: 'GIFT_CARD' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      field: 'sourceOfFunds.provided.giftCard',
      validationType: 'MISSING',
    });
  });

  it('refuses unmasking without certificate authentication', async () => {
    const response = await under.api.put(`/order/${newOrder()}/transaction/t1`, {
      ...authorizeBody(),
      responseControls: { sensitiveData: 'UNMASK' },
    });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({
      cause: 'REQUEST_REJECTED',
      supportCode: expect.any(String),
    });
  });
});
