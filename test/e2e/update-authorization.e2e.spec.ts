import {
  authorizeBody,
  merchantClient,
  orderIds,
  startGateway,
  useGateway,
} from '../support/gateway-process';
import { expectRefused } from '../support/invalid-request';

/**
 * UPDATE_AUTHORIZATION over HTTP against the built gateway (issue 15, item 4; behaviour notes,
 * "Update Authorization"). Run `npm run build` first.
 */
type Api = ReturnType<typeof merchantClient>;
const newOrder = orderIds('upd');

const money = (operation: string, amount: string, extra: Record<string, unknown> = {}) => ({
  apiOperation: operation,
  transaction: { amount, currency: 'USD' },
  ...extra,
});
const update = (amount: string, extra: Record<string, unknown> = {}) =>
  money('UPDATE_AUTHORIZATION', amount, extra);
const capture = (amount: string) => money('CAPTURE', amount);

/** What the order holds, as Retrieve Order shows it: its transactions and totals. */
async function recorded(api: Api, orderId: string) {
  const { body } = await api.get(`/order/${orderId}`);
  const transactions = body.transaction as { transaction: { id: string; type: string } }[];
  return {
    ids: transactions.map((t) => t.transaction.id),
    types: transactions.map((t) => t.transaction.type),
    authorized: body.totalAuthorizedAmount as number,
    captured: body.totalCapturedAmount as number,
  };
}

describe('UPDATE_AUTHORIZATION over HTTP', () => {
  const under = useGateway();

  async function authorized(order: string, amount = '100.00') {
    const answer = await under.api.put(`/order/${order}/transaction/auth`, authorizeBody(amount));
    expect(answer.body.result).toBe('SUCCESS');
  }

  it('authorize 100, update to 150, capture 150: the order is CAPTURED at 150', async () => {
    const order = newOrder();
    await authorized(order);
    const body = update('150.00', {
      transaction: { amount: '150.00', currency: 'USD', reference: 'tip' },
      customer: { email: 'joe@example.com' },
    });
    const updated = await under.api.put(`/order/${order}/transaction/upd-1`, body);
    expect(updated.status).toBe(201);
    expect(updated.body).toMatchObject({
      result: 'SUCCESS',
      response: { gatewayCode: 'APPROVED', acquirerCode: '00' },
      order: {
        id: order,
        amount: 150,
        status: 'AUTHORIZED',
        totalAuthorizedAmount: 150,
        totalCapturedAmount: 0,
      },
      customer: { email: 'joe@example.com' },
      transaction: {
        id: 'upd-1',
        type: 'AUTHORIZATION_UPDATE',
        amount: 150,
        currency: 'USD',
        reference: 'tip',
        authorizationCode: expect.stringMatching(/^\d{6}$/),
      },
      // The authorization's card, as on a capture.
      sourceOfFunds: { type: 'CARD', provided: { card: { number: '512345xxxxxx0008' } } },
    });

    // Retrieve Transaction shows what the operation answered; the identical retry gets it byte for byte.
    expect((await under.api.get(`/order/${order}/transaction/upd-1`)).body).toEqual(updated.body);
    const retry = await under.api.put(`/order/${order}/transaction/upd-1`, body);
    expect([retry.status, retry.text]).toEqual([201, updated.text]);
    // The same id with another body is refused, naming the id.
    expect(
      (await under.api.put(`/order/${order}/transaction/upd-1`, update('160.00'))).body.error.field,
    ).toBe('transaction.id');

    const captured = await under.api.put(`/order/${order}/transaction/cap-1`, capture('150.00'));
    expect(captured.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'CAPTURED', totalAuthorizedAmount: 150, totalCapturedAmount: 150 },
    });
    const retrieved = await under.api.get(`/order/${order}`);
    expect(retrieved.body).toMatchObject({
      amount: 150,
      status: 'CAPTURED',
      totalAuthorizedAmount: 150,
      totalCapturedAmount: 150,
    });
    expect(
      retrieved.body.transaction.map((t: any) => [
        t.transaction.type,
        t.order.totalAuthorizedAmount,
      ]),
    ).toEqual([
      ['AUTHORIZATION', 100],
      ['AUTHORIZATION_UPDATE', 150],
      ['CAPTURE', 150],
    ]);
  });

  it('lowers the total to what is captured, never below it; a refusal stores nothing', async () => {
    const order = newOrder();
    await authorized(order);
    await under.api.put(`/order/${order}/transaction/cap-1`, capture('60.00'));
    expectRefused(
      await under.api.put(`/order/${order}/transaction/upd-1`, update('59.999')),
      'transaction.amount',
      /^Value '59\.999' is invalid\. Amount is below the 60 already captured on the order$/,
    );
    const lowered = await under.api.put(`/order/${order}/transaction/upd-2`, update('60.00'));
    expect(lowered.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'CAPTURED', amount: 60, totalAuthorizedAmount: 60, totalCapturedAmount: 60 },
    });
    expect((await recorded(under.api, order)).ids).toEqual(['auth', 'cap-1', 'upd-2']);
  });

  it('is refused on a voided authorization, a declined one, a payment, another currency, no order', async () => {
    const voided = newOrder();
    await authorized(voided);
    await under.api.put(`/order/${voided}/transaction/void-1`, {
      apiOperation: 'VOID',
      transaction: { targetTransactionId: 'auth' },
    });
    expectRefused(
      await under.api.put(`/order/${voided}/transaction/upd-1`, update('50.00')),
      'transaction.amount',
      /authorization has been voided/,
    );

    const declined = newOrder();
    await under.api.put(
      `/order/${declined}/transaction/auth`,
      authorizeBody('100.00', { month: '5', year: '39' }),
    );
    expectRefused(
      await under.api.put(`/order/${declined}/transaction/upd-1`, update('50.00')),
      'transaction.amount',
      /no approved authorization/,
    );

    const paid = newOrder();
    await under.api.put(`/order/${paid}/transaction/pay`, {
      ...authorizeBody('100.00'),
      apiOperation: 'PAY',
    });
    expectRefused(
      await under.api.put(`/order/${paid}/transaction/upd-1`, update('120.00')),
      'transaction.amount',
      /no approved authorization/,
    );

    const euros = newOrder();
    await authorized(euros);
    expectRefused(
      await under.api.put(`/order/${euros}/transaction/upd-1`, {
        apiOperation: 'UPDATE_AUTHORIZATION',
        transaction: { amount: '120.00', currency: 'EUR' },
      }),
      'transaction.currency',
      /order's currency is USD/,
    );

    const missing = await under.api.put(`/order/${newOrder()}/transaction/upd-1`, update('1.00'));
    expect(missing.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field: 'order.id' });

    for (const order of [voided, declined, paid, euros])
      expect((await recorded(under.api, order)).types).not.toContain('AUTHORIZATION_UPDATE');
  });

  it('a decline or a block leaves the total unchanged', async () => {
    const order = newOrder();
    await authorized(order);
    // As AUTHORIZE without acceptPartialAmount: an amount whose thousandths are 777 is declined.
    const declined = await under.api.put(`/order/${order}/transaction/upd-1`, update('150.777'));
    expect(declined.status).toBe(201);
    expect(declined.body).toMatchObject({
      result: 'FAILURE',
      response: { gatewayCode: 'DECLINED' },
      order: { status: 'AUTHORIZED', amount: 100, totalAuthorizedAmount: 100 },
      transaction: { type: 'AUTHORIZATION_UPDATE', amount: 150.777 },
    });
    const blocked = await under.api.put(
      `/order/${order}/transaction/upd-2`,
      update('150.00', { customer: { email: 'risk-reject@example.com' } }),
    );
    expect(blocked.body).toMatchObject({
      result: 'FAILURE',
      response: { gatewayCode: 'BLOCKED' },
      risk: { response: { gatewayCode: 'REJECTED' } },
      order: { totalAuthorizedAmount: 100 },
    });
    expectRefused(
      await under.api.put(`/order/${order}/transaction/cap-1`, capture('100.001')),
      'transaction.amount',
      /exceeds the 100 authorized/,
    );
  });

  it('is accepted at every API version, one shape for all', async () => {
    const order = newOrder();
    await authorized(order);
    for (const [version, amount] of [
      [1, '110.00'],
      [39, '120.00'],
    ] as const) {
      const answer = await merchantClient(under.gateway, 'TESTMERCHANT', version).put(
        `/order/${order}/transaction/upd-v${version}`,
        update(amount),
      );
      expect(answer.body).toMatchObject({ result: 'SUCCESS', version: String(version) });
    }
  });

  it('races CAPTURE on one order: the two never both act on the same funds', async () => {
    // Lower to 50 against a capture of 80, and raise to 150 against a capture of 120, each pair at once.
    const pairs = await Promise.all(
      [
        ['50.00', '80.00'],
        ['150.00', '120.00'],
      ].flatMap(([total, captured]) =>
        [0, 1, 2].map(async () => {
          const order = newOrder();
          await authorized(order);
          const [u, c] = await Promise.all([
            under.api.put(`/order/${order}/transaction/upd`, update(total)),
            under.api.put(`/order/${order}/transaction/cap`, capture(captured)),
          ]);
          return { order, lowered: total === '50.00', u, c };
        }),
      ),
    );
    for (const { order, lowered, u, c } of pairs) {
      for (const answer of [u, c])
        expect(answer.status === 201 ? answer.body.result : answer.body.error.field).toMatch(
          /^(SUCCESS|transaction\.amount)$/,
        );
      // Lowered below the capture: whichever came second was refused. Raised: the update always succeeds.
      if (lowered) expect([u.status, c.status].sort()).toEqual([201, 400]);
      else expect(u.status).toBe(201);
      const stored = await recorded(under.api, order);
      expect(stored.captured).toBeLessThanOrEqual(stored.authorized);
      // What was answered is what is stored: a refused request left nothing.
      const answered = [u.status === 201 && 'upd', c.status === 201 && 'cap'].filter(Boolean);
      expect([...stored.ids].sort()).toEqual(['auth', ...answered].sort());
    }
  });
});

describe('UPDATE_AUTHORIZATION on two processes sharing a data directory', () => {
  it('the identical retry, sent to a process that never saw it, is byte-identical; a capture there sees the new total', async () => {
    const first = await startGateway();
    // Started after the first, so both read the same keys; it folds the order from the stored events.
    const second = await startGateway(first.dataDir);
    try {
      const order = newOrder();
      const body = update('150.00');
      const api = merchantClient(first);
      await api.put(`/order/${order}/transaction/auth`, authorizeBody('100.00'));
      const original = await api.put(`/order/${order}/transaction/upd-1`, body);
      expect(original.body.result).toBe('SUCCESS');
      await first.stop();

      const other = merchantClient(second);
      const retry = await other.put(`/order/${order}/transaction/upd-1`, body);
      expect([retry.status, retry.text]).toEqual([201, original.text]);
      const captured = await other.put(`/order/${order}/transaction/cap-1`, capture('150.00'));
      expect(captured.body).toMatchObject({ result: 'SUCCESS', order: { status: 'CAPTURED' } });
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
