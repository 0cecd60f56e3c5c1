import 'reflect-metadata';
import { authorizeBody, ENGINES, requestsFor } from './support/requests';

describe.each(ENGINES)('%s engine', (engine) => {
  const { errorOf } = requestsFor(engine);

  describe('the first violation in document order is reported', () => {
    test('the earlier of two broken values wins, whichever group class-validator visits first', () => {
      const customerFirst = {
        customer: { email: 'nope' },
        ...authorizeBody(),
        billing: { address: { country: 'usa' } },
      };
      expect(errorOf(customerFirst).field).toBe('customer.email');
      const billingFirst = {
        billing: { address: { country: 'usa' } },
        ...authorizeBody(),
        customer: { email: 'nope' },
      };
      expect(errorOf(billingFirst).field).toBe('billing.address.country');
    });

    test('within a group the order of the keys as sent decides', () => {
      const body = authorizeBody();
      body.order = { currency: 'usd', amount: '1.2345' };
      expect(errorOf(body)).toMatchObject({ field: 'order.currency', validationType: 'INVALID' });
      body.order = { amount: '1.2345', currency: 'usd' };
      expect(errorOf(body)).toMatchObject({ field: 'order.amount', validationType: 'INVALID' });
    });

    test('every permutation of the keys gives the error of the first broken key', () => {
      const broken: Record<string, unknown> = {
        customer: { firstName: '' },
        device: { ipAddress: 'x' },
        shipping: { method: 'BOAT' },
        risk: { bypassMerchantRiskRules: 'SOME' },
      };
      const paths: Record<string, string> = {
        customer: 'customer.firstName',
        device: 'device.ipAddress',
        shipping: 'shipping.method',
        risk: 'risk.bypassMerchantRiskRules',
      };
      const permutations = (keys: string[]): string[][] =>
        keys.length <= 1
          ? [keys]
          : keys.flatMap((k, i) =>
              permutations([...keys.slice(0, i), ...keys.slice(i + 1)]).map((p) => [k, ...p]),
            );
      for (const order of permutations(Object.keys(broken))) {
        const body = {
          ...authorizeBody(),
          ...Object.fromEntries(order.map((k) => [k, broken[k]])),
        };
        expect(errorOf(body).field).toBe(paths[order[0]]);
      }
    });

    test('a missing field sits at the end of its group: before the groups that follow, after the members sent', () => {
      const body = {
        apiOperation: 'AUTHORIZE',
        order: { currency: 'USD', description: '' },
        customer: { email: 'nope' },
      };
      // order.description (sent) comes before order.amount (missing, end of order) which comes before customer.
      expect(errorOf(body).field).toBe('order.description');
      body.order.description = 'fine';
      expect(errorOf(body)).toMatchObject({ field: 'order.amount', validationType: 'MISSING' });
    });

    test('fields missing from one group follow the declaration order of the contract', () => {
      const body = { ...authorizeBody(), order: { description: 'no amount, no currency' } };
      expect(errorOf(body)).toMatchObject({ field: 'order.amount', validationType: 'MISSING' });
    });

    test('a field missing from an inner group comes before one missing from the group around it', () => {
      // The item is the last member of the order: both groups close at the same point, the inner one first.
      const body = {
        ...authorizeBody(),
        order: { amount: '1', item: [{ quantity: '1', unitPrice: '1' }] },
      };
      expect(errorOf(body)).toMatchObject({
        field: 'order.item[0].name',
        validationType: 'MISSING',
      });
    });

    test('a group missing entirely is reported at the end of the body', () => {
      const body = {
        apiOperation: 'AUTHORIZE',
        sourceOfFunds: authorizeBody().sourceOfFunds,
        customer: { email: 'nope' },
      };
      expect(errorOf(body).field).toBe('customer.email');
      body.customer.email = 'jane@example.com';
      expect(errorOf(body)).toMatchObject({
        field: 'order.amount',
        validationType: 'MISSING',
        explanation: "Field 'order.amount' is required",
      });
    });

    test('a cross-field violation takes its place like any other', () => {
      const body: Record<string, any> = { ...authorizeBody(), customer: { email: 'nope' } };
      body.order = { amount: '10.00', currency: 'USD', itemAmount: '9.00' };
      expect(errorOf(body).field).toBe('order.amount');
    });

    test('the same body always gives the same error', () => {
      const body = {
        ...authorizeBody(),
        device: { ipAddress: 'x' },
        customer: { email: 'nope' },
        extra: 1,
      };
      const first = errorOf(body);
      for (let i = 0; i < 20; i++) expect(errorOf(body)).toEqual(first);
    });
  });
});
