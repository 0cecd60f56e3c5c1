import { foldOrder, type DeciderCommand, type OrderEvent } from '@gateway/domain';
import { initiate, initiated, started } from './authentication.fixtures';
import { given, orderOf } from './decider-spec';
import { card, created, pay, recorded } from './order.fixtures';

/**
 * order.notificationUrl: the order's first transaction records it in OrderCreated; a later
 * transaction giving another records it in its own event, and the order notifies there from that
 * transaction on (the newest given wins). Each transaction's orderAfter keeps the URL as it stood
 * then, so a retried request's response stays what it was.
 */
const SHOP = 'https://shop.example/notify';
const NEW_SHOP = 'https://shop.example/notify-v2';

const notifying = <C extends DeciderCommand>(command: C, url: string): C => ({
  ...command,
  notificationUrl: url,
});
const createdNotifying = (url: string): OrderEvent => {
  const event = created();
  return { ...event, data: { ...event.data, notificationUrl: url } } as OrderEvent;
};
const paying = (url?: string): OrderEvent => ({
  type: 'PaymentProcessed',
  data: recorded('PAYMENT', 't1', 25_000, {
    sourceOfFunds: card,
    ...(url ? { notificationUrl: url } : {}),
  }),
});
const pay25 = pay({ transactionId: 't1', amount: 25_000 });

const urlsOf = (events: OrderEvent[]) => {
  const order = orderOf(foldOrder(events));
  return {
    order: order.notificationUrl,
    after: order.transactions.map((t) => t.orderAfter.notificationUrl),
  };
};

describe('order.notificationUrl', () => {
  it('INITIATE_AUTHENTICATION opening the order records it in OrderCreated', () =>
    given([])
      .when(notifying(initiate(), SHOP))
      .then([createdNotifying(SHOP), initiated()]));

  it('a PAY giving it after 3-D Secure without one records it: the order notifies from the PAY on', () => {
    const history = [created(), initiated(), started];
    given(history)
      .when(notifying(pay25, SHOP))
      .then([paying(SHOP)]);
    expect(urlsOf([...history, paying(SHOP)])).toEqual({
      order: SHOP,
      after: [undefined, SHOP],
    });
  });

  it('a later transaction giving another URL records it: the newest given wins', () => {
    const history = [createdNotifying(SHOP), initiated()];
    given(history)
      .when(notifying(pay25, NEW_SHOP))
      .then([paying(NEW_SHOP)]);
    expect(urlsOf([...history, paying(NEW_SHOP)])).toEqual({
      order: NEW_SHOP,
      after: [SHOP, NEW_SHOP],
    });
  });

  it('a later transaction giving the same URL, or none, records nothing and keeps it', () => {
    const history = [createdNotifying(SHOP), initiated()];
    given(history).when(notifying(pay25, SHOP)).then([paying()]);
    given(history).when(pay25).then([paying()]);
    expect(urlsOf([...history, paying()])).toEqual({ order: SHOP, after: [SHOP, SHOP] });
  });

  it('a later step of a transaction notifies where the order does by then', () => {
    const second = initiated();
    const initiatedA2: OrderEvent = {
      ...second,
      data: { ...second.data, id: 'a2', requestHash: 'h-a2', notificationUrl: SHOP },
    } as OrderEvent;
    const history = [created(), initiated()];
    given(history)
      .when(notifying(initiate('AUTHENTICATION_AVAILABLE', 'a2'), SHOP))
      .then([initiatedA2]);
    const order = orderOf(foldOrder([...history, initiatedA2, started]));
    expect(order.transactions.map((t) => t.orderAfter.notificationUrl)).toEqual([SHOP, SHOP]);
    expect(order.transactions[0]!.earlier?.[0]?.orderAfter.notificationUrl).toBeUndefined();
  });
});
