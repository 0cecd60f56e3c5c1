import { basicAuth, MERCHANTS, useGateway } from '../support/gateway-process';

/** Bodies nested deeper, or with longer lists, than any contract allows are refused before parsing. */
describe('JSON depth and list length limits', () => {
  const under = useGateway();

  const item = { name: 'thing', quantity: '1', unitPrice: '1.00' };
  const authorize = (items: number) => ({
    apiOperation: 'AUTHORIZE',
    order: { amount: `${items}.00`, currency: 'USD', item: Array(items).fill(item) },
    sourceOfFunds: {
      type: 'CARD',
      provided: {
        card: { number: '5123450000000008', expiry: { month: '1', year: '39' } },
      },
    },
  });

  it('takes 1000 order.item elements and refuses 1001, naming order.item', async () => {
    expect((await under.api.put('/order/items-1/transaction/1', authorize(1000))).status).toBe(201);
    const refused = await under.api.put('/order/items-2/transaction/1', authorize(1001));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      cause: 'INVALID_REQUEST',
      explanation: 'Value is invalid. It has 1001 elements, but must have at most 1000',
      field: 'order.item',
      validationType: 'INVALID',
    });
    expect((await under.api.get('/order/items-2')).status).toBe(404);
  });

  it.each([
    ['an operation', '/order/deep-1/transaction/1', 'PUT'],
    ['a session update', '/session/SESSION0000000000000000000000001', 'PUT'],
  ])(
    'refuses a body nested 100,000 levels deep in %s, naming the field',
    async (_, path, method) => {
      const depth = 100_000;
      const body = `{"apiOperation":"AUTHORIZE","order":{"custom":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      const answer = await fetch(under.api.url(path), {
        method,
        headers: { authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT) },
        body,
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: unknown }).error).toEqual({
        cause: 'INVALID_REQUEST',
        explanation: 'Value is invalid. It is nested more than 32 levels deep',
        // 32 levels down: order.custom[0]…[0] with 30 indexes, cut to fit error.field's 100 characters.
        field: `order.custom${'[0]'.repeat(29)}`,
        validationType: 'INVALID',
      });
      expect((await fetch(`${under.gateway.baseUrl}/health/live`)).status).toBe(200);
    },
  );
});
