import 'reflect-metadata';
import { hasSourceOfFunds } from '@gateway/contract';
import { authorizeBody, contractFor, ENGINES, requestsFor } from './support/requests';

describe.each(ENGINES)('%s engine', (engine) => {
  const { errorOf, valueOf } = requestsFor(engine);

  describe('absent means absent: null and empty groups count as not supplied', () => {
    test('a client library body with every group sent, empty where unused and null parts, is accepted as the plain one', () => {
      const plain = authorizeBody();
      const chatty = {
        ...plain,
        '3DSecure': {},
        billing: { address: { street: null, city: null, country: null } },
        customer: { email: null, firstName: null },
        device: {},
        shipping: { address: {}, contact: { email: null } },
        order: { ...plain.order, item: [], custom: {}, discount: { amount: null } },
        risk: null,
        transaction: { reference: null },
        sourceOfFunds: {
          ...plain.sourceOfFunds,
          token: null,
          provided: { ...plain.sourceOfFunds.provided, ach: {}, giftCard: null },
        },
      };
      expect(valueOf(chatty)).toEqual(plain);
    });

    test('an empty 3DSecure group does not make its enrollmentStatus required', () => {
      expect(valueOf({ ...authorizeBody(), '3DSecure': { acsEci: null, xid: null } })).toEqual(
        authorizeBody(),
      );
    });

    test('an empty ach group does not make its fields required', () => {
      const body = authorizeBody();
      body.sourceOfFunds.provided.ach = { accountType: null };
      expect(valueOf(body)).toEqual(authorizeBody());
    });

    test('a required field sent as null is missing', () => {
      const body = authorizeBody();
      body.order.amount = null;
      expect(errorOf(body)).toMatchObject({ field: 'order.amount', validationType: 'MISSING' });
    });

    test('a required group sent empty is missing its first required member', () => {
      const contract = contractFor('VOID', 40);
      expect(
        errorOf({ apiOperation: 'VOID', transaction: { targetTransactionId: null } }, contract),
      ).toMatchObject({
        field: 'transaction.targetTransactionId',
        validationType: 'MISSING',
      });
    });

    test('an empty source of funds is no source of funds (for the must-not-be-supplied rule of linked refunds)', () => {
      const refund = contractFor('REFUND', 41);
      const body = {
        apiOperation: 'REFUND',
        transaction: { amount: '5.00', currency: 'USD' },
        sourceOfFunds: { provided: { card: { number: null, expiry: {} } }, type: null },
      };
      const value = valueOf(body, refund);
      expect(value).toEqual({
        apiOperation: 'REFUND',
        transaction: { amount: '5.00', currency: 'USD' },
      });
      expect(hasSourceOfFunds(value)).toBe(false);
      expect(hasSourceOfFunds(valueOf(authorizeBody()))).toBe(true);
    });

    test('an unknown field sent as null or empty is not supplied, so not rejected', () => {
      expect(
        valueOf({
          ...authorizeBody(),
          loyalty: null,
          wallet: {},
          order: { ...authorizeBody().order, colour: null },
        }),
      ).toEqual(authorizeBody());
    });

    test('an empty string is a value, not an absence', () => {
      const body = authorizeBody();
      body.order.reference = '';
      expect(errorOf(body)).toMatchObject({
        field: 'order.reference',
        validationType: 'INVALID',
        explanation: "Value '' is invalid. Length is 0 characters, but must be at least 1",
      });
    });

    test('the value keeps strings as sent and leaves the request untouched', () => {
      const body = { ...authorizeBody(), customer: { firstName: ' Jane ', lastName: null } };
      const copy = structuredClone(body);
      expect(valueOf(body)).toMatchObject({ customer: { firstName: ' Jane ' } });
      expect(body).toEqual(copy);
    });
  });
});
