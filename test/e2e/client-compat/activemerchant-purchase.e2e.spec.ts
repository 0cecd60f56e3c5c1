import { orderIds, useGateway } from '../../support/gateway-process';

/**
 * What ActiveMerchant's Mastercard gateway sends (issue 14, point 5): one request shape for every
 * operation, every group present (empty where unused), nulls for the missing parts of an
 * address, and the same options on CAPTURE and REFUND as on AUTHORIZE. Its purchase is AUTHORIZE
 * then CAPTURE.
 */
const under = useGateway();
const newOrder = orderIds('activemerchant');

const OPTIONS = {
  customer: { phone: '(555)555-5555', email: 'joe@example.com' },
  billing: {
    address: {
      street: '456 My Street',
      street2: null,
      city: 'Ottawa',
      stateProvince: 'ON',
      postcodeZip: 'K1C2N6',
      country: 'CAN',
    },
  },
  device: { ipAddress: '127.0.0.1' },
  shipping: {
    address: {
      street: '1 Shipping Way',
      street2: 'Unit 4',
      city: 'Ottawa',
      stateProvince: null,
      postcodeZip: 'K1C2N6',
      country: 'CAN',
    },
  },
};

/** `new_post` of the gem: every group, empty unless the operation fills it. */
const NEW_POST: Record<string, unknown> = {
  order: {},
  transaction: {},
  sourceOfFunds: { provided: { card: {} } },
  customer: {},
  billing: {},
  device: {},
  shipping: {},
};

function post(apiOperation: string, fill: Record<string, unknown>) {
  return { ...NEW_POST, ...OPTIONS, ...fill, apiOperation };
}

const card = {
  provided: {
    card: {
      number: '5123450000000008',
      expiry: { month: '1', year: '39' },
      securityCode: '100',
      holder: { firstName: 'Longbob', lastName: 'Longsen' },
    },
  },
  type: 'CARD',
};

/** The echo the gateway answers: nulls are absent, street2 joins street (spec, address group). */
const ECHOED = {
  customer: OPTIONS.customer,
  billing: {
    address: {
      street: '456 My Street',
      city: 'Ottawa',
      stateProvince: 'ON',
      postcodeZip: 'K1C2N6',
      country: 'CAN',
    },
  },
  device: OPTIONS.device,
  shipping: {
    address: {
      street: '1 Shipping Way Unit 4',
      city: 'Ottawa',
      postcodeZip: 'K1C2N6',
      country: 'CAN',
    },
  },
};

describe('ActiveMerchant (Mastercard gateway): purchase and refund', () => {
  it('purchase is AUTHORIZE then CAPTURE with the same options; a REFUND carries them too', async () => {
    const order = newOrder();
    const authorize = await under.api.put(
      `/order/${order}/transaction/1`,
      post('AUTHORIZE', {
        order: { amount: '1.00', currency: 'USD', reference: 'am-ref-1' },
        sourceOfFunds: card,
      }),
    );
    expect(authorize.status).toBe(201);
    expect(authorize.body).toMatchObject({ result: 'SUCCESS', ...ECHOED });

    const capture = await under.api.put(
      `/order/${order}/transaction/2`,
      post('CAPTURE', {
        transaction: { amount: '1.00', currency: 'USD', reference: 'cap-ref' },
        order: { reference: 'am-ref-1', description: 'Store purchase', custom: { shop: 'A1' } },
      }),
    );
    expect(capture.status).toBe(201);
    expect(capture.body).toMatchObject({
      result: 'SUCCESS',
      ...ECHOED,
      order: {
        status: 'CAPTURED',
        reference: 'am-ref-1',
        description: 'Store purchase',
        custom: { shop: 'A1' },
      },
      transaction: { type: 'CAPTURE', amount: 1, reference: 'cap-ref' },
    });
    expect(capture.body.billing.address).not.toHaveProperty('street2');

    const refund = await under.api.put(
      `/order/${order}/transaction/3`,
      post('REFUND', {
        transaction: { amount: '0.40', currency: 'USD' },
        order: { description: 'Returned item' },
      }),
    );
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({
      result: 'SUCCESS',
      ...ECHOED,
      order: { status: 'PARTIALLY_REFUNDED', description: 'Returned item' },
      transaction: { type: 'REFUND', amount: 0.4 },
    });

    // Recorded with the transaction: its GET and the order's list show the same echo.
    const got = await under.api.get(`/order/${order}/transaction/2`);
    expect(got.status).toBe(200);
    expect(got.text).toBe(capture.text);
    const retrieved = await under.api.get(`/order/${order}`);
    const [, captured, refunded] = retrieved.body.transaction;
    expect(captured).toMatchObject({ ...ECHOED, order: { description: 'Store purchase' } });
    expect(refunded).toMatchObject({ ...ECHOED, order: { description: 'Returned item' } });
  });

  it('PAY takes the same options', async () => {
    const pay = await under.api.put(
      `/order/${newOrder()}/transaction/1`,
      post('PAY', { order: { amount: '2.00', currency: 'USD' }, sourceOfFunds: card }),
    );
    expect(pay.status).toBe(201);
    expect(pay.body).toMatchObject({ result: 'SUCCESS', ...ECHOED, order: { status: 'CAPTURED' } });
  });

  it('a field no operation names is still refused on CAPTURE, naming it, and nothing is recorded', async () => {
    const order = newOrder();
    const authorize = await under.api.put(
      `/order/${order}/transaction/1`,
      post('AUTHORIZE', { order: { amount: '1.00', currency: 'USD' }, sourceOfFunds: card }),
    );
    expect(authorize.status).toBe(201);
    for (const [fill, field] of [
      [{ customer: { phone: '1', nickname: 'Bob' } }, 'customer.nickname'],
      [{ order: { amount: '1.00' } }, 'order.amount'],
      [{ device: { ipAddress: 'localhost' } }, 'device.ipAddress'],
    ] as const) {
      const capture = await under.api.put(`/order/${order}/transaction/2`, {
        ...post('CAPTURE', { transaction: { amount: '1.00', currency: 'USD' } }),
        ...fill,
      });
      expect(capture.status).toBe(400);
      expect(capture.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field });
    }
    const retrieved = await under.api.get(`/order/${order}`);
    expect(retrieved.body.transaction).toHaveLength(1);
  });
});
