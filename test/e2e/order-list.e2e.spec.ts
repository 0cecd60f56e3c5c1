import {
  authorizeBody,
  basicAuth,
  merchantClient,
  MERCHANTS,
  projectionCaughtUp,
  useGateway,
} from '../support/gateway-process';

const under = useGateway();

describe('GET …/merchant/{m}/order: the merchant order list (order-summary read model)', () => {
  const ids = ['list-a', 'list-b', 'list-c', 'list-d', 'list-e'];
  let firstCreated: string;

  beforeAll(async () => {
    const api = under.api;
    for (const id of ids) {
      // list-e's authorization is declined (expiry 05/39).
      const expiry = id === 'list-e' ? { month: '5', year: '39' } : undefined;
      const auth = await api.put(`/order/${id}/transaction/1`, authorizeBody('100.00', expiry));
      expect(auth.status).toBe(201);
      firstCreated ??= auth.body.order.creationTime;
    }
    expect(
      (
        await api.put('/order/list-b/transaction/2', {
          apiOperation: 'CAPTURE',
          transaction: { amount: '60.00', currency: 'USD' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api.put('/order/list-d/transaction/2', {
          apiOperation: 'CAPTURE',
          transaction: { amount: '100.00', currency: 'USD' },
        })
      ).status,
    ).toBe(201);
    const other = merchantClient(under.gateway, 'TESTOTHER');
    expect((await other.put('/order/other-1/transaction/1', authorizeBody('7.00'))).status).toBe(
      201,
    );
    await projectionCaughtUp(under.gateway);
  });

  it('lists the orders newest first with status, totals, currency, times and transaction count', async () => {
    const list = await under.api.get('/order');
    expect(list.status).toBe(200);
    expect(list.body.merchant).toBe('TESTMERCHANT');
    expect(list.body.order.map((o: any) => o.id)).toEqual([...ids].reverse());
    const b = list.body.order.find((o: any) => o.id === 'list-b');
    const order = await under.api.get('/order/list-b');
    expect(b).toEqual({
      id: 'list-b',
      status: 'PARTIALLY_CAPTURED',
      currency: 'USD',
      totalAuthorizedAmount: 100,
      totalCapturedAmount: 60,
      totalRefundedAmount: 0,
      creationTime: order.body.creationTime,
      lastUpdatedTime: order.body.lastUpdatedTime,
      transactionCount: 2,
    });
    const e = list.body.order.find((o: any) => o.id === 'list-e');
    expect(e).toMatchObject({ status: 'FAILED', totalAuthorizedAmount: 0, transactionCount: 1 });
    expect(list.body.nextCursor).toBeUndefined();
  });

  it('filters by status', async () => {
    const captured = await under.api.get('/order?status=CAPTURED');
    expect(captured.body.order.map((o: any) => o.id)).toEqual(['list-d']);
    const none = await under.api.get('/order?status=REFUNDED');
    expect(none.body).toEqual({ merchant: 'TESTMERCHANT', order: [] });
  });

  it('filters by creation time, from inclusive and to exclusive', async () => {
    const from = encodeURIComponent(firstCreated);
    const all = await under.api.get(`/order?from=${from}`);
    expect(all.body.order).toHaveLength(5);
    const before = await under.api.get(`/order?to=${from}`);
    expect(before.body.order).toEqual([]);
    const future = await under.api.get('/order?from=2999-01-01');
    expect(future.body.order).toEqual([]);
  });

  it('pages with a cursor, each order exactly once', async () => {
    const seen: string[] = [];
    let path = '/order?limit=2';
    for (let page = 0; page < 5; page++) {
      const response = await under.api.get(path);
      expect(response.status).toBe(200);
      expect(response.body.order.length).toBeLessThanOrEqual(2);
      seen.push(...response.body.order.map((o: any) => o.id));
      if (!response.body.nextCursor) break;
      path = `/order?limit=2&cursor=${response.body.nextCursor}`;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it("never shows another merchant's orders, and refuses another merchant's list", async () => {
    const other = merchantClient(under.gateway, 'TESTOTHER');
    const own = await other.get('/order');
    expect(own.body.order.map((o: any) => o.id)).toEqual(['other-1']);
    // TESTOTHER's credentials on TESTMERCHANT's path: the same 401 as a wrong password.
    const response = await fetch(
      `${under.gateway.baseUrl}/api/rest/version/100/merchant/TESTMERCHANT/order`,
      {
        headers: { authorization: basicAuth('TESTOTHER', MERCHANTS.TESTOTHER) },
      },
    );
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('list-');
    const anonymous = await fetch(
      `${under.gateway.baseUrl}/api/rest/version/100/merchant/TESTMERCHANT/order`,
    );
    expect(anonymous.status).toBe(401);
  });

  it.each([
    ['status=SHIPPED', 'status'],
    ['from=yesterday', 'from'],
    ['to=2026-13-45T00:00:00Z', 'to'],
    ['from=2026-11-22T10:00:00', 'from'], // no zone
    ['from=2026-11-23&to=2026-11-22', 'to'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['status=CAPTURED&status=FAILED', 'status'],
    ['merchant=TESTOTHER', 'merchant'],
  ])('answers ?%s with 400 INVALID_REQUEST naming %s', async (query, field) => {
    const response = await under.api.get(`/order?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      result: 'ERROR',
      error: {
        cause: 'INVALID_REQUEST',
        explanation: expect.any(String),
        field,
        validationType: 'INVALID',
      },
    });
  });

  it('refuses a bad API version in the path', async () => {
    const response = await fetch(
      `${under.gateway.baseUrl}/api/rest/version/0/merchant/TESTMERCHANT/order`,
      {
        headers: { authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT) },
      },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.field).toBe('version');
  });

  it('shows the projection lag in /metrics', async () => {
    const metrics = await (await fetch(`${under.gateway.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^gateway_projection_lag_seconds\{projection="order_summary"\} 0$/m);
    const head = /^gateway_projection_head_position\{projection="order_summary"\} (\d+)$/m.exec(
      metrics,
    )?.[1];
    expect(metrics).toContain(
      `gateway_projection_checkpoint_position{projection="order_summary"} ${head}`,
    );
  });
});
