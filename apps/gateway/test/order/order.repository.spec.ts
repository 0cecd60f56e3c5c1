import {
  decide,
  initialState,
  orderStreamId,
  stateAfter,
  type DeciderCommand,
  type Order,
} from '@gateway/domain';
import {
  InMemoryEventStore,
  StreamIntegrityError,
  WrongExpectedRevisionError,
} from '@gateway/event-store';
import { authorize, capture } from '../../../../libs/domain/test/order.fixtures';
import { KeyedMutex } from '../../src/order/keyed-mutex';
import { OperationPipeline } from '../../src/operations/pipeline';
import type { Ports } from '../../src/operations/slice';
import { OrderRepository } from '../../src/order/order.repository';

const STREAM = orderStreamId('TESTM', 'o-1');

/** Loads, decides and appends, as the transaction handler does. */
async function run(orders: OrderRepository, command: DeciderCommand) {
  const loaded = await orders.load(STREAM);
  return orders.append(STREAM, loaded, decide(command, loaded.state), {});
}

const ids = (order: { state: unknown }) => (order.state as Order).transactions.map((t) => t.id);

describe('OrderRepository', () => {
  let store: InMemoryEventStore;
  let here: OrderRepository;
  /** Another gateway process on the same store. */
  let elsewhere: OrderRepository;

  beforeEach(() => {
    store = new InMemoryEventStore();
    here = new OrderRepository(store, undefined, 1_000);
    elsewhere = new OrderRepository(store, undefined, 1_000);
  });

  it("reads only the events after those it folded, another process's included", async () => {
    await run(here, authorize({ transactionId: 'a', amount: 100_000 })); // revisions 0-1
    await run(elsewhere, capture({ transactionId: 'c1', amount: 10_000 }));
    await run(elsewhere, capture({ transactionId: 'c2', amount: 10_000 }));
    const reads = jest.spyOn(store, 'readStream');

    const loaded = await here.load(STREAM);
    expect(reads).toHaveBeenLastCalledWith(STREAM, { fromRevision: 2 });
    expect(loaded.revision).toBe(3);
    expect(ids(loaded)).toEqual(['a', 'c1', 'c2']);

    const again = await here.load(STREAM);
    expect(reads).toHaveBeenLastCalledWith(STREAM, { fromRevision: 4 });
    expect(again).toBe(loaded);
  });

  it('hands its fold of each append to the consumers of the committed events', async () => {
    const subscription = store.subscribe({});
    const events = subscription[Symbol.asyncIterator]();
    const saved = await run(here, authorize({ transactionId: 'a', amount: 100_000 }));
    const created = (await events.next()).value;
    const authorized = (await events.next()).value;
    await subscription.close();
    expect(stateAfter(authorized)).toBe(saved.state);
    expect(stateAfter(created)).toBeUndefined(); // only the append's last event: consumers fold it
    const readBack = await store.readStream(STREAM);
    expect(stateAfter(readBack[1])).toBeUndefined(); // another object, as after a restart
  });

  it('answers exactly what folding the whole stream from scratch does', async () => {
    await run(here, authorize({ transactionId: 'a', amount: 100_000 }));
    for (let i = 0; i < 5; i++)
      await run(i % 2 ? here : elsewhere, capture({ transactionId: `c${i}`, amount: 1_000 }));
    const fromScratch = await new OrderRepository(store).load(STREAM);
    const cached = await here.load(STREAM);
    expect(cached.revision).toBe(fromScratch.revision);
    expect({ ...cached.state }).toEqual({ ...fromScratch.state });
    expect((cached.state as Order).transactions).toEqual((fromScratch.state as Order).transactions);
  });

  it("decides on another process's write after losing the race to it, never on the old state", async () => {
    await run(here, authorize({ transactionId: 'a', amount: 100_000 }));
    const stale = await here.load(STREAM);
    await run(elsewhere, capture({ transactionId: 'c1', amount: 100_000 }));
    const command = capture({ transactionId: 'c2', amount: 100_000 });
    await expect(
      here.append(STREAM, stale, decide(command, stale.state), {}),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    const fresh = await here.load(STREAM);
    expect(ids(fresh)).toEqual(['a', 'c1']);
    expect(() => decide(command, fresh.state)).toThrow(/exceeds|captur/i);
  });

  it('never appends onto a stream damaged under a cached fold', async () => {
    await run(here, authorize({ transactionId: 'a', amount: 100_000 }));
    await here.load(STREAM);
    store.loseFromIndexForTests(STREAM, 0);
    store.loseFromIndexForTests(STREAM, 1);
    await expect(run(here, capture({ transactionId: 'c1', amount: 1_000 }))).rejects.toBeInstanceOf(
      StreamIntegrityError,
    );
    await expect(new OrderRepository(store).load(STREAM)).rejects.toBeInstanceOf(
      StreamIntegrityError,
    );
    expect(await store.readAll()).toHaveLength(2);
  });

  it('without a cache, reads every stream whole', async () => {
    const uncached = new OrderRepository(store);
    await run(uncached, authorize({ transactionId: 'a', amount: 100_000 }));
    const reads = jest.spyOn(store, 'readStream');
    await uncached.load(STREAM);
    await uncached.load(STREAM);
    expect(reads.mock.calls).toEqual([
      [STREAM, { fromRevision: 0 }],
      [STREAM, { fromRevision: 0 }],
    ]);
    expect(uncached.cached()).toEqual({ orders: 0, events: 0 });
  });

  describe('knowing which streams the store holds (open)', () => {
    const A = authorize({ transactionId: 'a', amount: 100_000 });

    it('takes an order the store never held as new without reading it', async () => {
      const orders = await OrderRepository.open(store);
      const reads = jest.spyOn(store, 'readStream');
      const loaded = await orders.loadToWrite(STREAM);
      expect(loaded.revision).toBe('no_stream');
      await orders.append(STREAM, loaded, decide(A, loaded.state), {});
      expect(reads).not.toHaveBeenCalled();
      expect(ids(await orders.loadToWrite(STREAM))).toEqual(['a']);
      expect(reads).toHaveBeenCalledTimes(1);
    });

    it('reads the orders the store held when it opened', async () => {
      await run(here, A);
      const orders = await OrderRepository.open(store);
      expect(ids(await orders.loadToWrite(STREAM))).toEqual(['a']);
    });

    it("reads an order another process created since, having read that process's events once", async () => {
      const orders = await OrderRepository.open(store);
      await run(elsewhere, A);
      const readAll = jest.spyOn(store, 'readAll');
      expect(ids(await orders.loadToWrite(STREAM))).toEqual(['a']);
      expect((await orders.loadToWrite(orderStreamId('TESTM', 'o-2'))).revision).toBe('no_stream');
      expect(readAll).toHaveBeenCalledTimes(1);
    });

    it("waits for its own committed appends' acknowledgements rather than reading", async () => {
      const orders = await OrderRepository.open(store);
      const readAll = jest.spyOn(store, 'readAll');
      const reads = jest.spyOn(store, 'readStream');
      const other = orderStreamId('TESTM', 'o-2');
      // Committed at once by the in-memory store, acknowledged a moment later.
      const appending = orders.append(
        other,
        await orders.loadToWrite(other),
        decide(A, initialState()),
        {},
      );
      expect((await orders.loadToWrite(STREAM)).revision).toBe('no_stream');
      await appending;
      expect(reads).not.toHaveBeenCalled();
      expect(readAll).not.toHaveBeenCalled();
    });

    it("reads an order another process created while this one's appends are in flight", async () => {
      const orders = await OrderRepository.open(store);
      const other = orderStreamId('TESTM', 'o-2');
      const fresh = await orders.loadToWrite(other);
      // Both committed at once by the in-memory store, acknowledged a moment later.
      const appending = orders.append(other, fresh, decide(A, initialState()), {});
      const elsewhereAppending = elsewhere.append(STREAM, fresh, decide(A, initialState()), {});
      expect(ids(await orders.loadToWrite(STREAM))).toEqual(['a']);
      await Promise.all([appending, elsewhereAppending]);
    });

    it('answers a retry that lost the race to another process from the stream', async () => {
      const orders = await OrderRepository.open(store);
      const pipeline = new OperationPipeline(orders, new KeyedMutex(), {} as Ports);
      const answer = await pipeline.run<string>({
        streamId: STREAM,
        now: new Date(),
        metadata: {},
        replay: (state) =>
          state.kind !== 'NoOrder' && ids({ state }).includes('a') ? 'replayed' : undefined,
        parse: () => ({ request: A }),
        ask: async () => {
          await run(elsewhere, A); // after the check, before the append
          return A;
        },
        refused: () => 'refused',
        lockLost: () => 'lock lost',
        render: () => 'appended',
      });
      expect(answer).toBe('replayed');
      expect(await store.readAll()).toHaveLength(2);
    });

    it('reads every stream when the store cannot list them', async () => {
      const unlisted = Object.assign(Object.create(store) as InMemoryEventStore, {
        listStreams: undefined,
      });
      const reads = jest.spyOn(store, 'readStream');
      await (await OrderRepository.open(unlisted)).loadToWrite(STREAM);
      expect(reads).toHaveBeenCalledTimes(1);
    });
  });
});
