import {
  authorizeBody,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';

const capture = (amount: string) => ({
  apiOperation: 'CAPTURE',
  transaction: { amount, currency: 'USD' },
});

describe('the most transactions an order may hold (GATEWAY_MAX_TRANSACTIONS_PER_ORDER)', () => {
  let gateway: RunningGateway;
  let api: ReturnType<typeof merchantClient>;

  beforeAll(async () => {
    gateway = await startGateway(undefined, { GATEWAY_MAX_TRANSACTIONS_PER_ORDER: '3' });
    api = merchantClient(gateway);
  });
  afterAll(() => gateway.stop());

  it('refuses a new transaction past it with INVALID_REQUEST on order.id, and records nothing', async () => {
    expect((await api.put('/order/full/transaction/a', authorizeBody('100.00'))).status).toBe(201);
    expect((await api.put('/order/full/transaction/c1', capture('10.00'))).status).toBe(201);
    const last = await api.put('/order/full/transaction/c2', capture('10.00'));
    expect(last.status).toBe(201);
    const before = await api.get('/order/full');

    for (const [id, body] of [
      ['c3', capture('10.00')],
      ['r1', { apiOperation: 'REFUND', transaction: { amount: '1.00', currency: 'USD' } }],
    ] as const) {
      const refused = await api.put(`/order/full/transaction/${id}`, body);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: {
          result: 'ERROR',
          error: {
            cause: 'INVALID_REQUEST',
            field: 'order.id',
            validationType: 'INVALID',
            explanation:
              "Value 'full' is invalid. The order holds 3 transactions, and an order may hold at most 3: use a new order",
          },
        },
      });
    }
    expect((await api.get('/order/full')).text).toBe(before.text);
    expect((await api.get('/order/full/transaction/c3')).status).toBe(404);

    // A retry of a transaction the order holds still gets its original answer.
    const retried = await api.put('/order/full/transaction/c2', capture('10.00'));
    expect({ status: retried.status, text: retried.text }).toEqual({
      status: 201,
      text: last.text,
    });
    // Other orders are not affected.
    expect((await api.put('/order/other/transaction/a', authorizeBody('5.00'))).status).toBe(201);
  });
});
