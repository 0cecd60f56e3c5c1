import { settleOrder } from '../../src/settlement/simulated-settlement';
import {
  authorize,
  capture,
  card,
  orderOf,
  pay,
  refund,
  settled,
  voidTx,
  withReference,
} from './settlement-orders';

/** What the simulated acquirer settles of an order in a batch (behaviour notes, Settlement). */
describe('settleOrder', () => {
  const authorized = authorize({
    transactionId: 'a',
    amount: 100_000,
    outcome: settled(100_000),
    sourceOfFunds: card('CREDIT'),
  });

  it('settles approved captures and refunds of the batch, with fees on captures only', () => {
    const order = orderOf(
      authorized,
      capture({ transactionId: 'c', amount: 60_000, outcome: settled(60_000) }),
      refund({ transactionId: 'r', amount: 10_000, outcome: settled(10_000) }),
    );
    expect(settleOrder(order, 20261122)).toEqual([
      {
        orderId: 'o-1',
        transactionId: 'c',
        acquirerTransactionId: 'acq-60000-20261122',
        type: 'CAPTURE',
        currency: 'USD',
        amount: 60_000,
        settledAmount: 60_000,
        fee: 1_000, // 1.5 % of 60.00 + 0.10 (the authorization's card is CREDIT)
      },
      expect.objectContaining({
        transactionId: 'r',
        type: 'REFUND',
        settledAmount: 10_000,
        fee: 0,
      }),
    ]);
  });

  it('leaves out authorizations, declines, voided captures and other batches', () => {
    const order = orderOf(
      authorized,
      capture({ transactionId: 'c1', amount: 10_000, outcome: settled(10_000) }),
      voidTx({ transactionId: 'v', targetTransactionId: 'c1', outcome: settled(0) }),
      capture({
        transactionId: 'c2',
        amount: 20_000,
        outcome: settled(20_000, { batch: 20261123 }),
      }),
      capture({
        transactionId: 'c3',
        amount: 30_000,
        outcome: { ...settled(30_000), gatewayCode: 'DECLINED' },
      }),
    );
    expect(settleOrder(order, 20261122)).toEqual([]);
    expect(settleOrder(order, 20261123).map((l) => l.transactionId)).toEqual(['c2']);
  });

  it('settles payments with the fee of their own funding method', () => {
    const order = orderOf(
      pay({
        transactionId: 'p',
        amount: 200_000,
        outcome: settled(200_000),
        sourceOfFunds: card('DEBIT'),
      }),
    );
    expect(settleOrder(order, 20261122)).toMatchObject([{ type: 'PAYMENT', fee: 1_050 }]);
  });

  it('leaves a RECON-MISSING order out and settles a RECON-SHORT one 0.01 short', () => {
    const payment = (reference: string) =>
      pay({
        transactionId: 'p',
        amount: 50_000,
        outcome: settled(50_000),
        sourceOfFunds: card(),
        ...withReference(reference),
      });
    expect(settleOrder(orderOf(payment('RECON-MISSING-1')), 20261122)).toEqual([]);
    expect(settleOrder(orderOf(payment('RECON-SHORT-1')), 20261122)).toMatchObject([
      { amount: 50_000, settledAmount: 49_990, fee: 850 },
    ]);
    expect(settleOrder(orderOf(payment('ordinary')), 20261122)).toMatchObject([
      { settledAmount: 50_000 },
    ]);
  });
});
