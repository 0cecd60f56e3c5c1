import {
  decide,
  evolve,
  foldOrder,
  initialState,
  type Order,
  type OrderEvent,
  type OrderEventType,
  type OrderState,
} from '@gateway/domain';
import type { StoredEvent } from '@gateway/event-store';
import {
  challengeCompleted,
  initiated,
  started,
  successful,
} from '../../domain/test/authentication.fixtures';
import {
  confirm,
  initiateBrowserPayment,
  redirect,
  returnFromProvider,
} from '../../domain/test/browser-payment.fixtures';
import {
  at,
  captured,
  created,
  paid,
  recorded,
  refunded,
  voided,
} from '../../domain/test/order.fixtures';
import { acquirerFactsHistory } from '../../domain/test/acquirer-facts.fixtures';
import { checkAsyncApi, type CheckedAsyncApi } from '../../../test/support/asyncapi';
import {
  buildOrderEventsAsyncApi,
  buildPublicOrderEvent,
  ORDER_EVENT_TYPES,
  renderTransaction,
} from '../src';

/** A card as recorded for a merchant masking 8.4: mask, fingerprint; bank data sealed. */
const card = {
  type: 'CARD',
  provided: {
    card: {
      number: '51234500xxxx0008',
      expiry: { month: '1', year: '39' },
      fingerprint: 'FINGERPRINT-of-the-card',
    },
  },
};
const ach = {
  type: 'ACH',
  provided: { ach: { bankAccountNumber: 'xxxxxxxx6789', routingNumber: '021000021' } },
  sealed: { 'ach.bankAccountNumber': 'k1.NONCE.SEALED-CIPHERTEXT.TAG' },
};

/** Each event of `events` stored as order o-1's, with the order as it left it. */
function stored(events: readonly OrderEvent[]): { event: StoredEvent; order: Order }[] {
  let state: OrderState = initialState();
  return events.map((e, revision) => {
    state = evolve(state, e);
    const event: StoredEvent = {
      eventId: `e-${revision}`,
      streamId: 'order:TESTM:o-1',
      revision,
      position: BigInt(100 + revision),
      recordedAt: at(revision),
      type: e.type,
      data: e.data,
      metadata: { apiOperation: 'AUTHORIZE' },
    };
    return { event, order: state as Order };
  });
}

/** The events the decider records for `commands`, one after another, on a new order. */
function decided(commands: readonly Parameters<typeof decide>[0][]): OrderEvent[] {
  const events: OrderEvent[] = [];
  for (const command of commands) events.push(...decide(command, foldOrder(events)));
  return events;
}

/** What the acquirer tells later: an UNKNOWN outcome learnt, a dispute, a chargeback, a settlement. */
const ACQUIRER_FACTS = acquirerFactsHistory(created());

/** Orders that between them hold every event type. */
const HISTORIES: readonly OrderEvent[][] = [
  [
    created(),
    { type: 'AuthorizationProcessed', data: { ...recorded('AUTHORIZATION', 'auth', 100_000), sourceOfFunds: card } },
    captured('cap', 60_000),
    refunded('ref', 10_000, 'cap'),
    voided('void', 'VOID_REFUND', 10_000, 'ref'),
  ],
  [
    created(),
    { type: 'AuthorizationProcessed', data: recorded('AUTHORIZATION', 't1', 5_000, { gatewayCode: 'TIMED_OUT', sourceOfFunds: card }) },
    { type: 'AuthorizationReversed', data: { transactionId: 't1', reason: 'TIMED_OUT', time: at(1) } },
    { type: 'VerificationProcessed', data: recorded('VERIFICATION', 'ver', 0, { sourceOfFunds: card }) },
    { type: 'PaymentProcessed', data: { ...recorded('PAYMENT', 'pay', 12_000), sourceOfFunds: ach } },
  ],
  [created(), initiated(), started, challengeCompleted(successful, 'APPROVED'), paid('p1', 25_000)],
  decided([initiateBrowserPayment(), redirect(), returnFromProvider('APPROVED', 'APPROVED')]),
  decided([
    initiateBrowserPayment({ paymentConfirmation: 'CONFIRM_AT_MERCHANT' }),
    redirect(),
    returnFromProvider('APPROVED', 'APPROVED'),
    confirm(),
  ]),
  [
    created(),
    { type: 'AuthorizationProcessed', data: { ...recorded('AUTHORIZATION', 'auth', 100_000), sourceOfFunds: card } },
    { type: 'AuthorizationUpdateProcessed', data: recorded('AUTHORIZATION_UPDATE', 'upd', 150_000) },
  ],
  ACQUIRER_FACTS,
]; // prettier-ignore

/** Every key at any depth, and every string value. */
function keysAndStrings(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value);
  else if (value && typeof value === 'object')
    for (const [key, member] of Object.entries(value)) {
      found.push(key);
      keysAndStrings(member, found);
    }
  return found;
}

describe('the public order event', () => {
  let asyncApi: CheckedAsyncApi;
  beforeAll(async () => {
    asyncApi = await checkAsyncApi(buildOrderEventsAsyncApi());
  });

  it('is described by an AsyncAPI 3 document that @asyncapi/parser accepts', () => {
    expect(asyncApi.problems).toEqual([]);
    expect(buildOrderEventsAsyncApi()).toMatchObject({ asyncapi: expect.stringMatching(/^3\./) });
  });

  it('shows the order as the event left it, in decimals, and the transaction as a GET would', () => {
    const [, , capture] = stored(HISTORIES[0]);
    const event = buildPublicOrderEvent(capture.order, capture.event, { cardMask: '6.4' });
    expect(event).toMatchObject({
      specVersion: 2,
      eventId: 'e-2',
      type: 'CaptureProcessed',
      merchantId: 'TESTM',
      orderId: 'o-1',
      revision: 2,
      position: '102',
      order: {
        id: 'o-1',
        amount: 100,
        currency: 'USD',
        status: 'PARTIALLY_CAPTURED',
        totalAuthorizedAmount: 100,
        totalCapturedAmount: 60,
        totalRefundedAmount: 0,
      },
    });
    const tx = capture.order.transactions.find((t) => t.id === 'cap')!;
    expect(event.transaction).toEqual(
      renderTransaction(capture.order, tx, undefined, { cardMask: '6.4' }),
    );
    // The capture shows the authorization's card, masked for the view asked for.
    expect(event.transaction).toMatchObject({
      transaction: { id: 'cap', amount: 60 },
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
    });
    const certificateView = buildPublicOrderEvent(capture.order, capture.event, {
      cardMask: '8.4',
    });
    expect(certificateView.transaction).toMatchObject({
      sourceOfFunds: { provided: { card: { number: '51234500xxxx0008' } } },
    });
  });

  it('holds nothing of what the gateway keeps for itself, even with an UNMASK view', () => {
    const unmask = () => 'CLEAR-BANK-NUMBER';
    for (const history of HISTORIES)
      for (const { order, event } of stored(history)) {
        const built = buildPublicOrderEvent(order, event, { cardMask: '8.4', unmask } as never);
        const found = keysAndStrings(built);
        for (const forbidden of [
          'fingerprint',
          'FINGERPRINT-of-the-card',
          'requestHash',
          'h-auth',
          'sealed',
          'k1.NONCE.SEALED-CIPHERTEXT.TAG',
          'CLEAR-BANK-NUMBER',
          'processor',
          'echo',
          'orderAfter',
        ])
          expect(found).not.toContain(forbidden);
        expect(JSON.stringify(built)).not.toMatch(/:(100000|60000|12000|25000)\b/);
      }
  });

  it('every event type: built events validate against the document, with a transaction but for OrderCreated and TransactionsSettled', () => {
    const seen = new Set<OrderEventType>();
    for (const history of HISTORIES)
      for (const { order, event } of stored(history)) {
        const built = JSON.parse(
          JSON.stringify(buildPublicOrderEvent(order, event, { cardMask: '6.4' })),
        );
        seen.add(built.type);
        expect([built.type, asyncApi.validate('orderEvent', built)]).toEqual([built.type, []]);
        expect(built.transaction === undefined).toBe(
          built.type === 'OrderCreated' || built.type === 'TransactionsSettled',
        );
      }
    expect([...seen].sort()).toEqual(Object.keys(ORDER_EVENT_TYPES).sort());
  });

  it('the acquirer’s facts: the outcome learnt, the dispute, the chargeback and the settlement as a GET shows them', () => {
    const events = stored(ACQUIRER_FACTS).map(({ order, event }) =>
      buildPublicOrderEvent(order, event, { cardMask: '6.4' }),
    );
    const [, , , , outcome, , opened, charged, settlement] = events;
    expect(outcome).toMatchObject({
      type: 'TransactionOutcomeLearned',
      order: { status: 'AUTHORIZED', totalAuthorizedAmount: 10 },
      transaction: { result: 'SUCCESS', response: { gatewayCode: 'APPROVED' } },
    });
    expect(opened).toMatchObject({
      type: 'DisputeOpened',
      order: { status: 'DISPUTED' },
      transaction: {
        order: { status: 'DISPUTED' },
        transaction: { id: 'c1', disputes: [{ id: 'd1', amount: 4, status: 'OPEN' }] },
      },
    });
    expect(charged).toMatchObject({
      type: 'ChargebackProcessed',
      order: { status: 'CHARGEBACK_PROCESSED', totalChargebackAmount: 4 },
      transaction: {
        order: { status: 'CHARGEBACK_PROCESSED', totalChargebackAmount: 4 },
        transaction: { id: 'cb-d1', type: 'CHARGEBACK', amount: 4, targetTransactionId: 'c1' },
      },
    });
    expect(settlement.settledTransactions).toMatchObject([
      {
        transaction: {
          id: 'c1',
          acquirer: {
            batch: 20261122,
            settlementDate: '2026-11-22',
            settlement: { amount: 10, fee: 0.25 },
          },
        },
      },
    ]);
    // The document holds each type to its members: a settlement lists what it settled, only it.
    const json = (value: unknown) => JSON.parse(JSON.stringify(value));
    const { settledTransactions, ...unlisted } = json(settlement);
    expect(asyncApi.validate('orderEvent', unlisted)).not.toEqual([]);
    expect(asyncApi.validate('orderEvent', { ...json(charged), settledTransactions })).not.toEqual(
      [],
    );
    expect(asyncApi.validate('orderEvent', json(settlement))).toEqual([]);
    // Orders the acquirer never took money from keep their shape.
    expect(events[5].order).not.toHaveProperty('totalChargebackAmount');
  });

  it('the schema refuses what the old envelope carried: stored data, thousandths, unknown members', () => {
    const [, authorization] = stored(HISTORIES[0]);
    const good = JSON.parse(
      JSON.stringify(
        buildPublicOrderEvent(authorization.order, authorization.event, { cardMask: '6.4' }),
      ),
    );
    expect(asyncApi.validate('orderEvent', good)).toEqual([]);
    expect(asyncApi.validate('orderEvent', { ...good, data: {} })).not.toEqual([]);
    expect(asyncApi.validate('orderEvent', { ...good, streamId: 'order:TESTM:o-1' })).not.toEqual(
      [],
    );
    expect(
      asyncApi.validate('orderEvent', { ...good, order: { ...good.order, totals: {} } }),
    ).not.toEqual([]);
    expect(
      asyncApi.validate('orderEvent', { ...good, order: { ...good.order, amount: '100.00' } }),
    ).not.toEqual([]);
    const { transaction: _none, ...withoutTransaction } = good;
    expect(asyncApi.validate('orderEvent', withoutTransaction)).not.toEqual([]);
  });

  it('refuses an event that names a transaction its order does not hold', () => {
    const [, authorization] = stored(HISTORIES[0]);
    const orphan = {
      ...authorization.event,
      data: { ...(authorization.event.data as object), id: 'nope' },
    };
    expect(() => buildPublicOrderEvent(authorization.order, orphan, { cardMask: '6.4' })).toThrow(
      /names no transaction/,
    );
  });
});
