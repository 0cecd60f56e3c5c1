import { randomUUID } from 'node:crypto';
import { useGateway } from '../../support/gateway-process';

/**
 * What ActiveMerchant's Mastercard gateway sends (issue 14, point 5): one request shape for every
 * operation, every group present (empty where unused), nulls for the missing parts of an
 * address, and the same options on CAPTURE and REFUND as on AUTHORIZE. Its purchase is AUTHORIZE
 * then CAPTURE. (The gem writes a shipping address's country as `shipping.address.shipcountry`, a
 * field no operation names, which stays refused: the shipping group here is the spec's.)
 */
const under = useGateway();
// The gem's ids: a UUID per order, '1' for its first transaction, a UUID for each later one.
const newOrder = () => randomUUID();

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
    card: { expiry: { year: '39', month: '01' }, number: '5123450000000008', securityCode: '100' },
  },
  type: 'CARD',
};

/** AUTHORIZE also names the payer from the card; CAPTURE and REFUND cite the previous transaction. */
const payer = { customer: { ...OPTIONS.customer, firstName: 'Longbob', lastName: 'Longsen' } };

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
        ...payer,
      }),
    );
    expect(authorize.status).toBe(201);
    expect(authorize.body).toMatchObject({ result: 'SUCCESS', ...ECHOED, ...payer });

    const captureId = randomUUID();
    const capture = await under.api.put(
      `/order/${order}/transaction/${captureId}`,
      post('CAPTURE', {
        transaction: { amount: '1.00', currency: 'USD', reference: '1' },
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
      transaction: { type: 'CAPTURE', amount: 1, reference: '1' },
    });
    expect(capture.body.billing.address).not.toHaveProperty('street2');

    const refund = await under.api.put(
      `/order/${order}/transaction/${randomUUID()}`,
      post('REFUND', {
        transaction: { amount: '0.40', currency: 'USD', reference: captureId },
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
    const got = await under.api.get(`/order/${order}/transaction/${captureId}`);
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
