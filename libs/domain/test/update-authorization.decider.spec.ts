import { foldOrder, type OrderEvent } from '@gateway/domain';
import { given, orderOf } from './decider-spec';
import {
  authorized,
  capture,
  captured,
  created,
  declined,
  declinedAuthorization,
  paid,
  recorded,
  updateAuthorization,
  voided,
  voidTx,
} from './order.fixtures';

const updated = (id: string, amount: number): OrderEvent => ({
  type: 'AuthorizationUpdateProcessed',
  data: recorded('AUTHORIZATION_UPDATE', id, amount),
});
const updateDeclined: OrderEvent = {
  type: 'AuthorizationUpdateProcessed',
  data: recorded('AUTHORIZATION_UPDATE', 'u1', 15_000, {
    gatewayCode: 'DECLINED',
    processor: { acquirerCode: '05' },
  }),
};

/** UPDATE_AUTHORIZATION (behaviour notes, "Update Authorization"): the order's new total authorized amount. */
describe('UPDATE_AUTHORIZATION', () => {
  describe('decides', () => {
    it('a higher total', () =>
      given([created(), authorized('t1', 10_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 15_000 }))
        .then([updated('u1', 15_000)]));

    it('a lower total, down to what is captured', () =>
      given([created(), authorized('t1', 10_000), captured('c1', 6_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 6_000 }))
        .then([updated('u1', 6_000)]));

    it('a decline, recorded as asked', () =>
      given([created(), authorized('t1', 10_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 15_000, outcome: declined() }))
        .then([updateDeclined]));
  });

  describe('refuses', () => {
    it('a total below the captured total', () =>
      given([created(), authorized('t1', 10_000), captured('c1', 6_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 5_999 }))
        .thenRejects('transaction.amount'));

    it('a total of zero', () =>
      given([created(), authorized('t1', 10_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 0 }))
        .thenRejects('transaction.amount'));

    it('an order whose authorization was voided', () =>
      given([created(), authorized('t1', 10_000), voided('v1', 'VOID_AUTHORIZATION', 10_000, 't1')])
        .when(updateAuthorization({ transactionId: 'u1', amount: 5_000 }))
        .thenRejects('transaction.amount'));

    it('an order whose authorization was declined', () =>
      given([created(), declinedAuthorization('t1', 10_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 5_000 }))
        .thenRejects('transaction.amount'));

    it('an order paid at once (a payment is no authorization to update)', () =>
      given([created(), paid('p1', 10_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 12_000 }))
        .thenRejects('transaction.amount'));

    it('an authorization of an account rather than a card', () =>
      given([
        created(),
        {
          type: 'AuthorizationProcessed',
          data: recorded('AUTHORIZATION', 't1', 10_000, { sourceOfFunds: { type: 'ACH' } }),
        },
      ])
        .when(updateAuthorization({ transactionId: 'u1', amount: 12_000 }))
        .thenRejects('transaction.amount'));

    it('another currency than the order’s', () =>
      given([created(), authorized('t1', 10_000)])
        .when(updateAuthorization({ transactionId: 'u1', amount: 12_000, currency: 'EUR' }))
        .thenRejects('transaction.currency'));

    it('an order that does not exist', () =>
      given([])
        .when(updateAuthorization({ transactionId: 'u1', amount: 12_000 }))
        .thenRejects('order.id'));

    it('a capture beyond the updated total', () =>
      given([created(), authorized('t1', 10_000), updated('u1', 15_000)])
        .when(capture({ transactionId: 'c1', amount: 15_001 }))
        .thenRejects('transaction.amount'));

    it('a void of the update itself (the authorization is voided instead)', () =>
      given([created(), authorized('t1', 10_000), updated('u1', 15_000)])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 'u1' }))
        .thenRejects('transaction.targetTransactionId'));
  });

  it('voiding the authorization releases the updated total', () =>
    given([created(), authorized('t1', 10_000), updated('u1', 15_000)])
      .when(voidTx({ transactionId: 'v1', targetTransactionId: 't1' }))
      .then([voided('v1', 'VOID_AUTHORIZATION', 15_000, 't1')]));

  describe('evolve: the new total, the status, order.amount', () => {
    it.each([
      {
        name: 'raised, then captured in full',
        events: [
          created(),
          authorized('t1', 10_000),
          updated('u1', 15_000),
          captured('c1', 15_000),
        ],
        statuses: ['AUTHORIZED', 'AUTHORIZED', 'CAPTURED'],
        totals: [15_000, 15_000],
        amount: 15_000,
      },
      {
        name: 'lowered to what is captured',
        events: [created(), authorized('t1', 10_000), captured('c1', 6_000), updated('u1', 6_000)],
        statuses: ['AUTHORIZED', 'PARTIALLY_CAPTURED', 'CAPTURED'],
        totals: [6_000, 6_000],
        amount: 6_000,
      },
      {
        name: 'raised after a full capture',
        events: [
          created(),
          authorized('t1', 10_000),
          captured('c1', 10_000),
          updated('u1', 12_000),
        ],
        statuses: ['AUTHORIZED', 'CAPTURED', 'PARTIALLY_CAPTURED'],
        totals: [12_000, 10_000],
        amount: 12_000,
      },
      {
        name: 'declined: nothing changes',
        events: [created(), authorized('t1', 10_000), updateDeclined],
        statuses: ['AUTHORIZED', 'AUTHORIZED'],
        totals: [10_000, 0],
        amount: 10_000,
      },
      {
        name: 'voided with its authorization',
        events: [
          created(),
          authorized('t1', 10_000),
          updated('u1', 15_000),
          voided('v1', 'VOID_AUTHORIZATION', 15_000, 't1'),
        ],
        statuses: ['AUTHORIZED', 'AUTHORIZED', 'CANCELLED'],
        totals: [0, 0],
        amount: 15_000,
      },
    ])('$name', ({ events, statuses, totals, amount }) => {
      const order = orderOf(foldOrder(events));
      expect(order.transactions.map((t) => t.orderAfter.status)).toEqual(statuses);
      expect([order.totals.authorized, order.totals.captured]).toEqual(totals);
      expect(order.amount).toBe(amount);
    });
  });
});
