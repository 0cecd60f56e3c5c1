import { evolve, initialState, type Order, type OrderState } from '@gateway/domain';
import { buildPublicOrderEvent } from '@gateway/order-view';
import { acquirerFactsHistory } from '../../domain/test/acquirer-facts.fixtures';
import { at } from '../../domain/test/order.fixtures';
import { notificationFor } from '../src/delivery/notification';

const URL = 'https://shop.example/hooks';

/** Issue 18: which of the acquirer's facts notify the merchant, and with which transaction. */
describe('notifications of the acquirer’s facts', () => {
  const history = acquirerFactsHistory({
    type: 'OrderCreated',
    data: {
      merchantId: 'TESTM',
      orderId: 'o-1',
      currency: 'USD',
      creationTime: at(0),
      notificationUrl: URL,
    },
  });

  it('an outcome learnt, a dispute and a chargeback notify; inquiries and settlements do not', () => {
    let state: OrderState = initialState();
    const notified = history.map((e, revision) => {
      state = evolve(state, e);
      const stored = {
        ...e,
        eventId: `e-${revision}`,
        streamId: 'order:TESTM:o-1',
        revision,
        position: BigInt(revision + 1),
        recordedAt: at(revision),
        metadata: {},
      };
      const sent = notificationFor(
        buildPublicOrderEvent(state as Order, stored, { cardMask: '6.4' }),
      );
      return sent && [e.type, sent.transactionId, JSON.parse(sent.body).order.status];
    });
    expect(notified.filter(Boolean)).toEqual([
      ['AuthorizationProcessed', 't1', 'FAILED'],
      ['TransactionOutcomeLearned', 't1', 'AUTHORIZED'],
      ['CaptureProcessed', 'c1', 'CAPTURED'],
      ['DisputeOpened', 'c1', 'DISPUTED'],
      ['ChargebackProcessed', 'cb-d1', 'CHARGEBACK_PROCESSED'],
    ]);
  });
});
