import { foldOrder, type OrderState } from '@gateway/domain';
import { given } from './decider-spec';
import {
  approved,
  authorize,
  authorized,
  capture,
  captured,
  card,
  created,
  declined,
  declinedAuthorization,
  paid,
  pay,
  recorded,
  refund,
  refunded,
  T0,
  verify,
  voided,
  voidTx,
} from './order.fixtures';

const orderOf = (state: OrderState) => {
  if (state.kind !== 'Order') throw new Error('no order');
  return state;
};

describe('Order decider', () => {
  describe('opening an order', () => {
    it('an approved authorization creates the order and records the authorization', () =>
      given([])
        .when(authorize({ transactionId: 't1', amount: 10_000 }))
        .then([created(), authorized('t1', 10_000)]));

    it('a declined authorization is recorded too, moving no money', () =>
      given([])
        .when(authorize({ transactionId: 't1', amount: 10_000, outcome: declined() }))
        .then([
          created(),
          {
            type: 'AuthorizationProcessed',
            data: recorded('AUTHORIZATION', 't1', 10_000, {
              gatewayCode: 'DECLINED',
              processor: { acquirerCode: '05' },
              sourceOfFunds: card,
            }),
          },
        ]));

    it('a partial approval records the approved amount and the requested amount', () =>
      given([])
        .when(
          authorize({
            transactionId: 't1',
            amount: 10_777,
            outcome: approved(5_388, 'PARTIALLY_APPROVED'),
          }),
        )
        .then([
          created(),
          {
            type: 'AuthorizationProcessed',
            data: recorded('AUTHORIZATION', 't1', 5_388, {
              gatewayCode: 'PARTIALLY_APPROVED',
              requestedAmount: 10_777,
              sourceOfFunds: card,
            }),
          },
        ]));

    it('a timed-out authorization is recorded with its automatic reversal, and moves no money', () => {
      given([])
        .when(
          authorize({
            transactionId: 't1',
            amount: 10_000,
            outcome: {
              gatewayCode: 'TIMED_OUT',
              approvedAmount: 10_000,
              reversed: true,
              details: {},
            },
          }),
        )
        .then([
          created(),
          {
            type: 'AuthorizationProcessed',
            data: recorded('AUTHORIZATION', 't1', 10_000, {
              gatewayCode: 'TIMED_OUT',
              processor: {},
              sourceOfFunds: card,
            }),
          },
          {
            type: 'AuthorizationReversed',
            data: { transactionId: 't1', reason: 'TIMED_OUT', time: T0 },
          },
        ]);
      const order = orderOf(
        foldOrder([
          created(),
          {
            type: 'AuthorizationProcessed',
            data: recorded('AUTHORIZATION', 't1', 10_000, { gatewayCode: 'TIMED_OUT' }),
          },
          {
            type: 'AuthorizationReversed',
            data: { transactionId: 't1', reason: 'TIMED_OUT', time: T0 },
          },
        ]),
      );
      expect(order).toMatchObject({
        status: 'FAILED',
        totals: { authorized: 0, captured: 0, refunded: 0 },
      });
      expect(order.transactions[0].reversedAt).toBe(T0);
    });

    it('a verification records no amount', () =>
      given([])
        .when(verify({ transactionId: 'v1', amount: 5_000 }))
        .then([
          created(),
          {
            type: 'VerificationProcessed',
            data: recorded('VERIFICATION', 'v1', 0, { sourceOfFunds: card }),
          },
        ]));

    it('after a decline the merchant may authorize again with a new transaction id', () =>
      given([created(), declinedAuthorization('t1', 10_000)])
        .when(authorize({ transactionId: 't2', amount: 10_000 }))
        .then([authorized('t2', 10_000)]));

    it('a payment authorizes and captures at once', () =>
      given([])
        .when(pay({ transactionId: 'p1', amount: 2_000 }))
        .then([created(), paid('p1', 2_000)]));

    it('a second authorization on an authorized order is rejected', () =>
      given([created(), authorized('t1', 10_000)])
        .when(authorize({ transactionId: 't2', amount: 1_000 }))
        .thenRejects('apiOperation'));

    it('sub-merchant and currency-conversion data are accepted only on the first transaction', () => {
      given([])
        .when(
          authorize({
            transactionId: 't1',
            amount: 1_000,
            firstTransactionOnly: ['currencyConversion'],
          }),
        )
        .then([created(), authorized('t1', 1_000)]);
      given([created(), authorized('t1', 10_000)])
        .when(
          capture({
            transactionId: 'c1',
            amount: 1_000,
            firstTransactionOnly: ['order.subMerchant'],
          }),
        )
        .thenRejects('order.subMerchant');
    });

    it('a transaction id already used on the order is rejected, naming it', () =>
      given([created(), authorized('t1', 10_000)])
        .when(capture({ transactionId: 't1', amount: 1_000 }))
        .thenRejects('transaction.id'));
  });

  describe('capture', () => {
    it('captures part of an authorization', () =>
      given([created(), authorized('t1', 10_000)])
        .when(capture({ transactionId: 'c1', amount: 4_000 }))
        .then([captured('c1', 4_000)]));

    it('rejects capturing more than is authorized and not yet captured', () =>
      given([created(), authorized('t1', 10_000), captured('c1', 4_000)])
        .when(capture({ transactionId: 'c2', amount: 6_001 }))
        .thenRejects('transaction.amount'));

    it('rejects a capture on a declined order', () =>
      given([created(), declinedAuthorization('t1', 10_000)])
        .when(capture({ transactionId: 'c1', amount: 1_000 }))
        .thenRejects('transaction.amount'));

    it('rejects a capture after the authorization was voided', () =>
      given([created(), authorized('t1', 10_000), voided('v1', 'VOID_AUTHORIZATION', 10_000, 't1')])
        .when(capture({ transactionId: 'c1', amount: 1_000 }))
        .thenRejects('transaction.amount'));

    it('rejects a capture in another currency', () =>
      given([created(), authorized('t1', 10_000)])
        .when(capture({ transactionId: 'c1', amount: 1_000, currency: 'EUR' }))
        .thenRejects('transaction.currency'));

    it('rejects a capture on an order that does not exist', () =>
      given([])
        .when(capture({ transactionId: 'c1', amount: 1_000 }))
        .thenRejects('order.id'));

    it('rejects a zero capture', () =>
      given([created(), authorized('t1', 10_000)])
        .when(capture({ transactionId: 'c1', amount: 0 }))
        .thenRejects('transaction.amount'));
  });

  describe('refund', () => {
    it('refunds against the capture, naming it as the target', () =>
      given([created(), authorized('t1', 10_000), captured('c1', 10_000)])
        .when(refund({ transactionId: 'r1', amount: 2_500 }))
        .then([refunded('r1', 2_500, 'c1')]));

    it('rejects refunding more than was captured', () =>
      given([
        created(),
        authorized('t1', 10_000),
        captured('c1', 4_000),
        refunded('r1', 3_000, 'c1'),
      ])
        .when(refund({ transactionId: 'r2', amount: 1_001 }))
        .thenRejects('transaction.amount'));

    it('rejects a refund on an authorization-only order', () =>
      given([created(), authorized('t1', 10_000)])
        .when(refund({ transactionId: 'r1', amount: 1 }))
        .thenRejects('transaction.amount'));

    it('rejects sourceOfFunds on a refund of an existing order', () =>
      given([created(), paid('p1', 10_000)])
        .when(refund({ transactionId: 'r1', amount: 1_000, sourceOfFunds: card }))
        .thenRejects('sourceOfFunds'));

    it('a standalone refund creates the order', () =>
      given([])
        .when(refund({ transactionId: 'r1', amount: 1_000, sourceOfFunds: card }))
        .then([
          created(),
          {
            type: 'RefundProcessed',
            data: recorded('REFUND', 'r1', 1_000, { sourceOfFunds: card }),
          },
        ]));

    it('a standalone refund without sourceOfFunds is rejected as MISSING', () =>
      given([])
        .when(refund({ transactionId: 'r1', amount: 1_000 }))
        .thenRejects('sourceOfFunds', 'MISSING'));

    it('a named target must be a capture or payment of the order', () =>
      given([created(), authorized('t1', 10_000), captured('c1', 10_000)])
        .when(refund({ transactionId: 'r1', amount: 1_000, targetTransactionId: 't1' }))
        .thenRejects('transaction.targetTransactionId'));
  });

  describe('void', () => {
    it('voids an authorization', () =>
      given([created(), authorized('t1', 10_000)])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 't1' }))
        .then([voided('v1', 'VOID_AUTHORIZATION', 10_000, 't1')]));

    it('voids a capture, a payment and a refund with the matching void type', () => {
      given([created(), authorized('t1', 10_000), captured('c1', 10_000)])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 'c1' }))
        .then([voided('v1', 'VOID_CAPTURE', 10_000, 'c1')]);
      given([created(), paid('p1', 10_000)])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 'p1' }))
        .then([voided('v1', 'VOID_PAYMENT', 10_000, 'p1')]);
      given([created(), paid('p1', 10_000), refunded('r1', 1_000, 'p1')])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 'r1' }))
        .then([voided('v1', 'VOID_REFUND', 1_000, 'r1')]);
    });

    it('rejects voiding twice', () =>
      given([created(), authorized('t1', 10_000), voided('v1', 'VOID_AUTHORIZATION', 10_000, 't1')])
        .when(voidTx({ transactionId: 'v2', targetTransactionId: 't1' }))
        .thenRejects('transaction.targetTransactionId'));

    it('rejects voiding an authorization that has captures', () =>
      given([created(), authorized('t1', 10_000), captured('c1', 1_000)])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 't1' }))
        .thenRejects('transaction.targetTransactionId'));

    it('rejects voiding a payment that has refunds, and voiding a void', () => {
      given([created(), paid('p1', 10_000), refunded('r1', 1_000, 'p1')])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 'p1' }))
        .thenRejects('transaction.targetTransactionId');
      given([created(), paid('p1', 10_000), voided('v1', 'VOID_PAYMENT', 10_000, 'p1')])
        .when(voidTx({ transactionId: 'v2', targetTransactionId: 'v1' }))
        .thenRejects('transaction.targetTransactionId');
    });

    it('rejects voiding an unknown or declined transaction', () => {
      given([created(), authorized('t1', 10_000)])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 'nope' }))
        .thenRejects('transaction.targetTransactionId');
      given([created(), declinedAuthorization('t1', 10_000)])
        .when(voidTx({ transactionId: 'v1', targetTransactionId: 't1' }))
        .thenRejects('transaction.targetTransactionId');
    });
  });

  describe('evolve: status and totals', () => {
    const cases: {
      name: string;
      events: Parameters<typeof foldOrder>[0];
      status: string;
      totals: [number, number, number];
    }[] = [
      {
        name: 'authorized',
        events: [created(), authorized('t1', 10_000)],
        status: 'AUTHORIZED',
        totals: [10_000, 0, 0],
      },
      {
        name: 'partially captured',
        events: [created(), authorized('t1', 10_000), captured('c1', 4_000)],
        status: 'PARTIALLY_CAPTURED',
        totals: [10_000, 4_000, 0],
      },
      {
        name: 'captured in two parts',
        events: [created(), authorized('t1', 10_000), captured('c1', 4_000), captured('c2', 6_000)],
        status: 'CAPTURED',
        totals: [10_000, 10_000, 0],
      },
      {
        name: 'paid',
        events: [created(), paid('p1', 10_000)],
        status: 'CAPTURED',
        totals: [10_000, 10_000, 0],
      },
      {
        name: 'partially refunded',
        events: [created(), paid('p1', 10_000), refunded('r1', 1_000, 'p1')],
        status: 'PARTIALLY_REFUNDED',
        totals: [10_000, 10_000, 1_000],
      },
      {
        name: 'refunded',
        events: [
          created(),
          paid('p1', 10_000),
          refunded('r1', 1_000, 'p1'),
          refunded('r2', 9_000, 'p1'),
        ],
        status: 'REFUNDED',
        totals: [10_000, 10_000, 10_000],
      },
      {
        name: 'authorization voided',
        events: [
          created(),
          authorized('t1', 10_000),
          voided('v1', 'VOID_AUTHORIZATION', 10_000, 't1'),
        ],
        status: 'CANCELLED',
        totals: [0, 0, 0],
      },
      {
        name: 'payment voided',
        events: [created(), paid('p1', 10_000), voided('v1', 'VOID_PAYMENT', 10_000, 'p1')],
        status: 'CANCELLED',
        totals: [0, 0, 0],
      },
      {
        name: 'capture voided: as if it had not happened',
        events: [
          created(),
          authorized('t1', 10_000),
          captured('c1', 4_000),
          voided('v1', 'VOID_CAPTURE', 4_000, 'c1'),
        ],
        status: 'AUTHORIZED',
        totals: [10_000, 0, 0],
      },
      {
        name: 'refund voided: as if it had not happened',
        events: [
          created(),
          paid('p1', 10_000),
          refunded('r1', 10_000, 'p1'),
          voided('v1', 'VOID_REFUND', 10_000, 'r1'),
        ],
        status: 'CAPTURED',
        totals: [10_000, 10_000, 0],
      },
      {
        name: 'declined first transaction',
        events: [created(), declinedAuthorization('t1', 10_000)],
        status: 'FAILED',
        totals: [0, 0, 0],
      },
      {
        name: 'verified',
        events: [
          created(),
          { type: 'VerificationProcessed', data: recorded('VERIFICATION', 'v1', 0) },
        ],
        status: 'VERIFIED',
        totals: [0, 0, 0],
      },
      {
        name: 'declined capture leaves the money untouched',
        events: [
          created(),
          authorized('t1', 10_000),
          {
            type: 'CaptureProcessed',
            data: recorded('CAPTURE', 'c1', 4_000, { gatewayCode: 'DECLINED' }),
          },
        ],
        status: 'AUTHORIZED',
        totals: [10_000, 0, 0],
      },
    ];
    it.each(cases)('$name → $status', ({ events, status, totals }) => {
      const order = orderOf(foldOrder(events));
      expect(order.status).toBe(status);
      expect([order.totals.authorized, order.totals.captured, order.totals.refunded]).toEqual(
        totals,
      );
    });

    it('records the order as it stood after each transaction, and the void on its target', () => {
      const order = orderOf(
        foldOrder([
          created(),
          authorized('t1', 10_000),
          captured('c1', 4_000),
          voided('v1', 'VOID_CAPTURE', 4_000, 'c1'),
        ]),
      );
      expect(order.transactions.map((t) => t.orderAfter.status)).toEqual([
        'AUTHORIZED',
        'PARTIALLY_CAPTURED',
        'AUTHORIZED',
      ]);
      expect(order.transactions.find((t) => t.id === 'c1')?.voided).toBe(true);
      expect(order.amount).toBe(10_000);
    });

    it('a partially approved authorization holds the approved amount', () => {
      const order = orderOf(
        foldOrder([
          created(),
          {
            type: 'AuthorizationProcessed',
            data: recorded('AUTHORIZATION', 't1', 5_388, {
              gatewayCode: 'PARTIALLY_APPROVED',
              requestedAmount: 10_777,
            }),
          },
        ]),
      );
      expect(order.totals.authorized).toBe(5_388);
      expect(order.status).toBe('AUTHORIZED');
    });
  });
});
