import { authorizeBody, orderIds, useGateway } from '../../support/gateway-process';
import {
  authenticatePayerBody,
  card,
  initiateAuthenticationBody,
} from '../../support/three-d-secure';

/**
 * Client libraries built for the older 3-D Secure flow (ActiveMerchant's `threed_secure_id`
 * option) put a `3DSecureId` on AUTHORIZE and PAY (issue 14, point 6). One that names no 3-D
 * Secure record of the order was approved as if it had been checked; it is now INVALID and
 * changes nothing.
 */
const under = useGateway();
const newOrder = orderIds('3dsid');

/** A frictionless card: the authentication is complete as soon as the payer step answers. */
const FRICTIONLESS = '5123456789012346';

async function authenticatedOrder(): Promise<string> {
  const order = newOrder();
  const initiated = await under.api.put(
    `/order/${order}/transaction/3ds-1`,
    initiateAuthenticationBody(FRICTIONLESS),
  );
  expect(initiated.status).toBe(201);
  const payer = await under.api.put(`/order/${order}/transaction/3ds-1`, authenticatePayerBody());
  expect(payer.body.transaction.authenticationStatus).toBe('AUTHENTICATION_SUCCESSFUL');
  return order;
}

const payment = (apiOperation: string, threeDSecureId: string) => ({
  ...authorizeBody('250.00'),
  apiOperation,
  sourceOfFunds: { type: 'CARD', provided: { card: card(FRICTIONLESS) } },
  '3DSecureId': threeDSecureId,
});

describe('3DSecureId on AUTHORIZE and PAY', () => {
  it.each(['AUTHORIZE', 'PAY'])(
    '%s naming the 3-D Secure record of the order is processed',
    async (apiOperation) => {
      const order = await authenticatedOrder();
      const paid = await under.api.put(
        `/order/${order}/transaction/pay-1`,
        payment(apiOperation, '3ds-1'),
      );
      expect(paid.status).toBe(201);
      expect(paid.body.result).toBe('SUCCESS');
    },
  );

  it.each(['AUTHORIZE', 'PAY'])(
    '%s naming no 3-D Secure record of the order is INVALID on 3DSecureId and changes nothing',
    async (apiOperation) => {
      const order = await authenticatedOrder();
      const before = await under.api.get(`/order/${order}`);
      for (const named of ['no-such-record', 'pay-1']) {
        const refused = await under.api.put(
          `/order/${order}/transaction/pay-1`,
          payment(apiOperation, named),
        );
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({
          result: 'ERROR',
          error: {
            cause: 'INVALID_REQUEST',
            explanation: `Value '${named}' is invalid. It must name a 3-D Secure authentication of this order`,
            field: '3DSecureId',
            validationType: 'INVALID',
          },
        });
      }
      expect((await under.api.get(`/order/${order}`)).text).toBe(before.text);
    },
  );

  it('on a new order it names nothing: refused, and no order is made', async () => {
    const order = newOrder();
    const refused = await under.api.put(
      `/order/${order}/transaction/1`,
      payment('AUTHORIZE', '3ds-1'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ field: '3DSecureId', validationType: 'INVALID' });
    expect((await under.api.get(`/order/${order}`)).status).toBe(404);
  });

  it('a malformed field is reported before the 3DSecureId is looked up', async () => {
    const refused = await under.api.put(`/order/${newOrder()}/transaction/1`, {
      ...payment('AUTHORIZE', 'no-such-record'),
      order: { amount: '1.2345', currency: 'USD' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ field: 'order.amount', validationType: 'INVALID' });
  });
});
