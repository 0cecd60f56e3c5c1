import { foldOrder, type BrowserPaymentRecord, type OrderEvent } from '@gateway/domain';
import {
  browserInitiated,
  confirm,
  initiateBrowserPayment,
  initiatedRecord,
  providerAnswer,
  redirect,
  redirected,
  returnFromProvider,
  returned,
  returnedRecord,
} from './browser-payment.fixtures';
import { given, orderOf } from './decider-spec';
import { at, authorize, capture, captured, created, recorded } from './order.fixtures';

const confirmAtMerchant = initiatedRecord({ paymentConfirmation: 'CONFIRM_AT_MERCHANT' });
const completed = (
  decision: 'APPROVED' | 'DECLINED' | 'CANCELLED',
  gatewayCode: 'APPROVED' | 'DECLINED' | 'ABORTED',
  base?: BrowserPaymentRecord,
): OrderEvent => {
  const record = returnedRecord(decision, base);
  return {
    type: 'BrowserPaymentCompleted',
    data: {
      transactionId: 'b1',
      time: at(2),
      gatewayCode,
      processor: providerAnswer(gatewayCode).details,
      browserPayment: {
        ...record,
        interaction: { ...record.interaction, status: 'COMPLETED', timeCompleted: at(2) },
      },
    },
  };
};

describe('browser payments', () => {
  it('INITIATE_BROWSER_PAYMENT with PAY opens a pending PAYMENT: the order is INITIATED', () => {
    given([]).when(initiateBrowserPayment()).then([created(), browserInitiated()]);
    expect(orderOf(foldOrder([created(), browserInitiated()]))).toMatchObject({
      status: 'INITIATED',
      totals: { authorized: 0, captured: 0 },
    });
  });

  it('with AUTHORIZE it opens a pending AUTHORIZATION', () =>
    given([])
      .when(initiateBrowserPayment({ operation: 'AUTHORIZE' }))
      .then([
        created(),
        browserInitiated(initiatedRecord({ operation: 'AUTHORIZE' }), 'AUTHORIZATION'),
      ]));

  it('the payer opening the provider page is recorded as REDIRECTED_TO_PROVIDER', () =>
    given([created(), browserInitiated()]).when(redirect()).then([redirected()]));

  it.each([
    ['approves', 'APPROVED', 'APPROVED', 'CAPTURED', 30_000],
    ['declines', 'DECLINED', 'DECLINED', 'FAILED', 0],
    ['cancels', 'CANCELLED', 'ABORTED', 'FAILED', 0],
  ] as const)(
    'the payer %s at the provider: returned, then completed',
    (_, decision, code, status, captured) => {
      const history = [created(), browserInitiated(), redirected()];
      const events = [returned(decision), completed(decision, code)];
      given(history).when(returnFromProvider(decision, code)).then(events);
      const order = orderOf(foldOrder([...history, ...events]));
      expect(order).toMatchObject({ status, totals: { captured } });
      expect(order.transactions[0].browserPayment?.interaction).toEqual({
        status: 'COMPLETED',
        timeInitiated: at(0),
        timeRedirected: at(1),
        timeReturned: at(2),
        timeCompleted: at(2),
      });
    },
  );

  it('an approved AUTHORIZE browser payment authorizes, and a CAPTURE then moves the funds', () => {
    const record = initiatedRecord({ operation: 'AUTHORIZE' });
    const returnedEvent = returned('APPROVED', record);
    const completion = completed('APPROVED', 'APPROVED', record);
    const history = [created(), browserInitiated(record, 'AUTHORIZATION'), redirected(record)];
    given(history)
      .when(returnFromProvider('APPROVED', 'APPROVED'))
      .then([returnedEvent, completion]);
    const authorized = [...history, returnedEvent, completion];
    expect(orderOf(foldOrder(authorized))).toMatchObject({
      status: 'AUTHORIZED',
      totals: { authorized: 30_000, captured: 0 },
    });
    given(authorized)
      .when(capture({ transactionId: 'c1', amount: 30_000 }))
      .then([captured('c1', 30_000)]);
  });

  describe('PROVIDER_A with CONFIRM_AT_MERCHANT', () => {
    const history = [
      created(),
      browserInitiated(confirmAtMerchant),
      redirected(confirmAtMerchant),
      returned('APPROVED', confirmAtMerchant),
    ];

    it('an approval waits at RETURNED_TO_MERCHANT for the merchant', () => {
      given(history.slice(0, 3))
        .when(returnFromProvider('APPROVED', 'APPROVED'))
        .then([returned('APPROVED', confirmAtMerchant)]);
      expect(orderOf(foldOrder(history))).toMatchObject({ status: 'INITIATED' });
    });

    it('CONFIRM_BROWSER_PAYMENT on the same ids completes the payment', () => {
      const waiting = returnedRecord('APPROVED', confirmAtMerchant);
      const confirmed: OrderEvent = {
        type: 'BrowserPaymentConfirmed',
        data: {
          transactionId: 'b1',
          time: at(3),
          requestHash: 'h-b1-confirm',
          apiVersion: 100,
          gatewayCode: 'APPROVED',
          processor: providerAnswer('APPROVED').details,
          browserPayment: {
            ...waiting,
            interaction: { ...waiting.interaction, status: 'COMPLETED', timeCompleted: at(3) },
          },
        },
      };
      given(history).when(confirm()).then([confirmed]);
      expect(orderOf(foldOrder([...history, confirmed]))).toMatchObject({
        status: 'CAPTURED',
        totals: { captured: 30_000 },
      });
    });

    it('a confirmation for another amount is refused naming order.amount', () =>
      given(history)
        .when(confirm({ amount: 1 }))
        .thenRejects('order.amount'));

    it('a confirmation before the payer returned is refused', () =>
      given(history.slice(0, 3)).when(confirm()).thenRejects('transaction.id'));
  });

  describe('refused orderings', () => {
    it('CONFIRM_BROWSER_PAYMENT of a CONFIRM_AT_PROVIDER payment', () =>
      given([created(), browserInitiated(), redirected(), returned('APPROVED')])
        .when(confirm())
        .thenRejects('transaction.id'));

    it('CONFIRM_BROWSER_PAYMENT without a browser payment', () =>
      given([]).when(confirm()).thenRejects('order.id'));

    it('returning from the provider before being redirected there', () =>
      given([created(), browserInitiated()])
        .when(returnFromProvider('APPROVED', 'APPROVED'))
        .thenRejects('transaction.id'));

    it('returning twice', () =>
      given([
        created(),
        browserInitiated(),
        redirected(),
        returned('DECLINED'),
        completed('DECLINED', 'DECLINED'),
      ])
        .when(returnFromProvider('APPROVED', 'APPROVED'))
        .thenRejects('transaction.id'));

    it('redirecting a payer who is already at the provider', () =>
      given([created(), browserInitiated(), redirected()])
        .when(redirect())
        .thenRejects('transaction.id'));

    it('a payment on an order whose browser payment is under way', () =>
      given([created(), browserInitiated()])
        .when(authorize({ transactionId: 't2', amount: 1_000 }))
        .thenRejects('apiOperation'));

    it('a second browser payment while one is under way', () =>
      given([created(), browserInitiated()])
        .when(initiateBrowserPayment({ transactionId: 'b2' }))
        .thenRejects('apiOperation'));

    it('a new browser payment may follow a declined one', () =>
      given([
        created(),
        {
          type: 'PaymentProcessed',
          data: recorded('PAYMENT', 'p0', 30_000, { gatewayCode: 'DECLINED' }),
        },
      ])
        .when(initiateBrowserPayment())
        .then([browserInitiated()]));
  });
});
