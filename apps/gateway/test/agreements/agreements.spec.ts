import {
  agreementStreamId,
  decide,
  orderStreamId,
  type AgreementEvent,
  type AgreementRecord,
} from '@gateway/domain';
import { InMemoryEventStore, newEventId } from '@gateway/event-store';
import { pay } from '../../../../libs/domain/test/order.fixtures';
import { Agreements } from '../../src/agreements/agreements';
import { KeyedMutex } from '../../src/order/keyed-mutex';
import { OrderRepository } from '../../src/order/order.repository';

const STREAM = agreementStreamId('TESTM', 'sub-1');
const NOW = new Date('2026-11-26T10:00:00.000Z');
const firstPayment = {
  merchantId: 'TESTM',
  orderId: 'o-1',
  transactionId: 'pay-1',
  apiOperation: 'PAY',
  body: {
    apiOperation: 'PAY',
    agreement: { id: 'sub-1', type: 'RECURRING' },
    order: { amount: '25.00', currency: 'USD' },
  },
};

describe('Agreements', () => {
  let store: InMemoryEventStore;
  let orders: OrderRepository;
  let agreements: Agreements;

  beforeEach(() => {
    store = new InMemoryEventStore();
    orders = new OrderRepository(store, undefined, 1_000);
    agreements = new Agreements(store, new KeyedMutex(), orders);
  });

  /** The payment recorded on its order, as the pipeline records it. */
  async function recordPayment(): Promise<void> {
    const streamId = orderStreamId('TESTM', 'o-1');
    const loaded = await orders.load(streamId);
    const events = decide(pay({ transactionId: 'pay-1', amount: 25_000 }), loaded.state);
    await orders.append(streamId, loaded, events, {});
  }

  const recorded = async () =>
    (await store.readStream(STREAM)).map((e) => e.data as unknown as AgreementRecord);

  it('establishes the agreement from the payment as its order recorded it', async () => {
    await agreements.run(firstPayment, NOW, async (admit) => {
      expect(admit(firstPayment.body)).toEqual(firstPayment.body);
      await recordPayment();
    });
    expect(await recorded()).toEqual([
      expect.objectContaining({ agreementId: 'sub-1', type: 'RECURRING', amount: 25_000 }),
    ]);
  });

  it('a retry of a first payment whose agreement was never recorded (a crash between the two appends) records it', async () => {
    await recordPayment();
    // The pipeline replays the original answer: admit is not even asked.
    await agreements.run(firstPayment, NOW, async () => 'the original answer');
    expect(await recorded()).toEqual([
      expect.objectContaining({ orderId: 'o-1', transactionId: 'pay-1' }),
    ]);
  });

  it('when another process establishes it first, the payment stands and the agreement keeps the other terms', async () => {
    const theirs: AgreementEvent = {
      type: 'AgreementEstablished',
      data: {
        agreementId: 'sub-1',
        type: 'RECURRING',
        amount: 30_000,
        currency: 'USD',
        card: { fingerprint: 'f-9' },
        payerAuthenticated: false,
        orderId: 'o-9',
        transactionId: 'pay-9',
        time: NOW.toISOString(),
      },
    };
    const answer = await agreements.run(firstPayment, NOW, async (admit) => {
      admit(firstPayment.body);
      await recordPayment();
      const event = { eventId: newEventId(), ...theirs, metadata: {} };
      await store.appendToStream(STREAM, [event], 'no_stream');
      return 'approved';
    });
    expect(answer).toBe('approved');
    expect(await recorded()).toEqual([theirs.data]);
  });

  it('a request citing no agreement reads nothing', async () => {
    const read = jest.spyOn(store, 'readStream');
    const body = { apiOperation: 'PAY', order: { amount: '25.00', currency: 'USD' } };
    const answer = await agreements.run({ ...firstPayment, body }, NOW, async (admit) => {
      expect(admit(body)).toBe(body);
      return 'paid';
    });
    expect(answer).toBe('paid');
    expect(read).not.toHaveBeenCalled();
  });
});
