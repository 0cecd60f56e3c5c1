import { randomUUID } from 'node:crypto';
import {
  DuplicateEventIdError,
  EventStore,
  NewEvent,
  StoredEvent,
  StreamIntegrityError,
  Subscription,
  WrongExpectedRevisionError,
} from '../src';

export interface ContractOptions {
  /** For group-committing adapters: how many commits (transactions) the store has made so far. */
  readonly commitCount?: (store: EventStore) => number;
  /**
   * KurrentDB checks event ids only to make an exact retry within a stream idempotent; it does
   * not reject an id already used in another stream, so that test is skipped for it.
   */
  readonly idsCheckedAcrossStreams?: boolean;
  /**
   * The store hands its own commits to live subscriptions that are up to date, without reading
   * them back (the embedded adapters; KurrentDB's subscriptions are the server's).
   */
  readonly feedsSubscriptions?: boolean;
}

export function newEvent(
  data: unknown = {},
  type = 'TestEvent',
  metadata: Record<string, unknown> = {},
): NewEvent {
  return { eventId: randomUUID(), type, data, metadata };
}

/** Takes `count` events from a subscription, failing instead of hanging if they never come. */
export async function take(
  subscription: Subscription,
  count: number,
  timeoutMs = 10_000,
): Promise<StoredEvent[]> {
  const received: StoredEvent[] = [];
  if (count === 0) return received;
  const iterator = subscription[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  while (received.length < count) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`timed out after ${received.length}/${count} events`)),
        deadline - Date.now(),
      );
    });
    const next = await Promise.race([iterator.next(), timeout]).finally(() => clearTimeout(timer));
    if (next.done) break;
    received.push(next.value);
  }
  return received;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

export interface ContractStore {
  readonly store: EventStore;
  readonly cleanup?: () => Promise<void>;
  /**
   * Damages the storage under the store as a bad disk or a flipped index would: the event at
   * `revision` of `streamId` is no longer found under that stream. Absent where the test cannot
   * reach the storage (a real server): the integrity tests are then skipped.
   */
  readonly loseEvent?: (streamId: string, revision: number) => Promise<void>;
}

/** Every promise of the EventStore port, run against one adapter. */
export function describeEventStoreContract(
  name: string,
  factory: () => Promise<ContractStore>,
  options: ContractOptions = {},
): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let cleanup: (() => Promise<void>) | undefined;
    let loseEvent: ContractStore['loseEvent'];

    beforeEach(async () => {
      ({ store, cleanup, loseEvent } = await factory());
    });
    afterEach(async () => {
      await store.close();
      await cleanup?.();
    });

    describe('appendToStream', () => {
      it("creates a stream with 'no_stream' and reports revision and position", async () => {
        const result = await store.appendToStream(
          'order:M1:1',
          [newEvent({ n: 0 }), newEvent({ n: 1 })],
          'no_stream',
        );
        expect(result.nextExpectedRevision).toBe(1);
        expect(typeof result.position).toBe('bigint');
        expect(await store.headPosition()).toBe(result.position);
        const events = await store.readStream('order:M1:1');
        expect(events.map((e) => [e.revision, e.data])).toEqual([
          [0, { n: 0 }],
          [1, { n: 1 }],
        ]);
        expect(events[1].position).toBe(result.position);
      });

      it('returns the committed events exactly as a read returns them', async () => {
        await store.appendToStream('other', [newEvent()], 'no_stream');
        const result = await store.appendToStream(
          's',
          [newEvent({ i: 0 }, 'A', { m: 1 }), newEvent({ i: 1, when: new Date(0) }, 'B')],
          'no_stream',
        );
        const read = await store.readStream('s');
        expect(result.events).toEqual(read);
        expect(result.events.map((e) => e.revision)).toEqual([0, 1]);
        expect(result.events[1].position).toBe(result.position);
        expect(result.events[1].data).toEqual({ i: 1, when: new Date(0).toISOString() });
      });

      it('appends with the correct numeric revision', async () => {
        const first = await store.appendToStream('s', [newEvent()], 'no_stream');
        const second = await store.appendToStream(
          's',
          [newEvent(), newEvent()],
          first.nextExpectedRevision,
        );
        expect(second.nextExpectedRevision).toBe(2);
        expect(second.position > first.position).toBe(true);
        const third = await store.appendToStream('s', [newEvent()], 2);
        expect(third.nextExpectedRevision).toBe(3);
        expect((await store.readStream('s')).map((e) => e.revision)).toEqual([0, 1, 2, 3]);
      });

      it.each([
        ['a stale revision', 0, 1],
        ['a revision ahead of the stream', 5, 1],
        ["'no_stream' on an existing stream", 'no_stream', 1],
      ] as const)(
        'rejects %s with a typed conflict and appends nothing',
        async (_label, expected, actual) => {
          await store.appendToStream('s', [newEvent(), newEvent()], 'no_stream');
          const head = await store.headPosition();
          const error = await rejection(
            store.appendToStream('s', [newEvent(), newEvent()], expected),
          );
          expect(error).toBeInstanceOf(WrongExpectedRevisionError);
          expect(error).toMatchObject({ streamId: 's', expected, actual });
          expect(await store.readStream('s')).toHaveLength(2);
          expect(await store.headPosition()).toBe(head);
        },
      );

      it("reports actual 'no_stream' when a numeric revision targets a missing stream", async () => {
        const error = await rejection(store.appendToStream('missing', [newEvent()], 0));
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ streamId: 'missing', expected: 0, actual: 'no_stream' });
        expect(await store.readStream('missing')).toEqual([]);
        expect(await store.headPosition()).toBeUndefined();
      });

      it("'any' appends to new and existing streams", async () => {
        expect((await store.appendToStream('s', [newEvent()], 'any')).nextExpectedRevision).toBe(0);
        expect(
          (await store.appendToStream('s', [newEvent(), newEvent()], 'any')).nextExpectedRevision,
        ).toBe(2);
      });

      it('gives a multi-event append consecutive revisions and increasing positions', async () => {
        await store.appendToStream('other', [newEvent()], 'no_stream');
        await store.appendToStream(
          's',
          [newEvent({ i: 0 }), newEvent({ i: 1 }), newEvent({ i: 2 })],
          'no_stream',
        );
        const events = await store.readStream('s');
        expect(events.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(events.map((e) => e.data)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
        expect(
          events[0].position < events[1].position && events[1].position < events[2].position,
        ).toBe(true);
      });

      const acrossStreams = options.idsCheckedAcrossStreams === false ? it.skip : it;
      acrossStreams('rejects a duplicate event id and appends nothing of that append', async () => {
        const known = newEvent();
        await store.appendToStream('a', [known], 'no_stream');
        const error = await rejection(
          store.appendToStream('b', [newEvent(), { ...known, data: { again: true } }], 'any'),
        );
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect(error).toMatchObject({ streamId: 'b', eventId: known.eventId });
        expect(await store.readStream('b')).toEqual([]);
        expect(await store.readAll()).toHaveLength(1);
      });

      it('rejects an event id repeated within one append', async () => {
        const event = newEvent();
        const error = await rejection(store.appendToStream('s', [event, event], 'no_stream'));
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream('s')).toEqual([]);
      });

      it('rejects invalid arguments without appending', async () => {
        await expect(store.appendToStream('s', [], 'any')).rejects.toThrow(TypeError);
        await expect(store.appendToStream('', [newEvent()], 'any')).rejects.toThrow(TypeError);
        await expect(store.appendToStream('s', [newEvent()], -1)).rejects.toThrow(TypeError);
        await expect(store.appendToStream('s', [newEvent()], 1.5)).rejects.toThrow(TypeError);
        await expect(
          store.appendToStream('s', [{ ...newEvent(), type: '' }], 'any'),
        ).rejects.toThrow(TypeError);
        expect(await store.headPosition()).toBeUndefined();
      });

      it('rejects non-JSON data without quoting it', async () => {
        const circular: Record<string, unknown> = { secretPan: '4111111111111111' };
        circular.self = circular;
        const error = (await rejection(
          store.appendToStream('s', [newEvent(circular)], 'any'),
        )) as Error;
        expect(error).toBeInstanceOf(TypeError);
        expect(error.message).not.toMatch(/4111|secretPan/);
      });

      it('commits many concurrent appends to different streams', async () => {
        const before = options.commitCount?.(store) ?? 0;
        const count = 300;
        const results = await Promise.all(
          Array.from({ length: count }, (_, i) =>
            store.appendToStream(`order:M1:${i}`, [newEvent({ i })], 'no_stream'),
          ),
        );
        expect(new Set(results.map((r) => r.position)).size).toBe(count);
        expect(await store.readAll({ maxCount: 1000 })).toHaveLength(count);
        if (options.commitCount) {
          const commits = options.commitCount(store) - before;
          expect(commits).toBeGreaterThan(0);
          expect(commits).toBeLessThan(count); // group commit: several appends shared a transaction
        }
      });

      it('lets exactly one of several concurrent appends with the same expected revision win', async () => {
        await store.appendToStream('race', [newEvent()], 'no_stream');
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => store.appendToStream('race', [newEvent({ i })], 0)),
        );
        const winners = outcomes.filter((o) => o.status === 'fulfilled');
        expect(winners).toHaveLength(1);
        for (const o of outcomes) {
          if (o.status === 'rejected')
            expect(o.reason).toMatchObject({ name: 'WrongExpectedRevisionError', actual: 1 });
        }
        expect(await store.readStream('race')).toHaveLength(2);
      });

      it('applies concurrent appends to one stream in call order, each seeing the previous', async () => {
        const [a, b, c] = await Promise.all([
          store.appendToStream('seq', [newEvent({ i: 0 })], 'no_stream'),
          store.appendToStream('seq', [newEvent({ i: 1 }), newEvent({ i: 2 })], 0),
          store.appendToStream('seq', [newEvent({ i: 3 })], 2),
        ]);
        expect([a, b, c].map((r) => r.nextExpectedRevision)).toEqual([0, 2, 3]);
        expect((await store.readStream('seq')).map((e) => e.data)).toEqual([
          { i: 0 },
          { i: 1 },
          { i: 2 },
          { i: 3 },
        ]);
      });

      it('round-trips data, metadata and unicode', async () => {
        const data = {
          text: 'Zürich — 東京 — 🚀💳 — \u0000nul — "quotes" \\ backslash',
          amount: { value: 12345, currency: 'EUR' },
          list: [1, 2.5, -3, true, false, null, 'x'],
          nested: { deep: { deeper: [{ k: 'v' }] } },
          empty: {},
        };
        const metadata = { correlationId: randomUUID(), actor: 'Ünïcødé 👤', retries: 0 };
        const event = newEvent(data, 'Payment.Authorised', metadata);
        await store.appendToStream('s', [event], 'no_stream');
        const [stored] = await store.readStream('s');
        expect(stored).toMatchObject({
          eventId: event.eventId,
          type: 'Payment.Authorised',
          streamId: 's',
          revision: 0,
        });
        expect(stored.data).toEqual(data);
        expect(stored.metadata).toEqual(metadata);
        expect(new Date(stored.recordedAt).toISOString()).toBe(stored.recordedAt);
        expect(Math.abs(Date.parse(stored.recordedAt) - Date.now())).toBeLessThan(60_000);
      });

      it('stores a snapshot: mutating the input or a read result changes nothing', async () => {
        const data = { amount: 1 };
        const appending = store.appendToStream('s', [newEvent(data)], 'no_stream');
        data.amount = 2;
        await appending;
        const [first] = await store.readStream('s');
        (first.data as { amount: number }).amount = 3;
        expect((await store.readStream('s'))[0].data).toEqual({ amount: 1 });
      });
    });

    describe('reads', () => {
      it('returns an empty list for a missing stream and undefined head for an empty store', async () => {
        expect(await store.readStream('nope')).toEqual([]);
        expect(await store.readAll()).toEqual([]);
        expect(await store.headPosition()).toBeUndefined();
      });

      it('reads one stream in revision order, ignoring other streams', async () => {
        let revision: number | 'no_stream' = 'no_stream';
        for (let i = 0; i < 5; i++) {
          await store.appendToStream('noise', [newEvent()], 'any');
          revision = (await store.appendToStream('s', [newEvent({ i })], revision))
            .nextExpectedRevision;
        }
        const events = await store.readStream('s');
        expect(events.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
        expect(events.every((e) => e.streamId === 's')).toBe(true);
      });

      it('reads all in strictly increasing position order, honouring after and maxCount', async () => {
        for (let i = 0; i < 10; i++)
          await store.appendToStream(`s${i % 3}`, [newEvent({ i })], 'any');
        const all = await store.readAll();
        expect(all.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        for (let i = 1; i < all.length; i++)
          expect(all[i].position > all[i - 1].position).toBe(true);
        expect(all[all.length - 1].position).toBe(await store.headPosition());

        const page = await store.readAll({ after: all[3].position, maxCount: 4 });
        expect(page.map((e) => e.eventId)).toEqual(all.slice(4, 8).map((e) => e.eventId));
        expect(await store.readAll({ after: all[9].position })).toEqual([]);
        expect(await store.readAll({ maxCount: 0 })).toEqual([]);
      });

      it('filters readAll by stream prefix, literally and case-sensitively', async () => {
        const ids = [
          'order:M1:a',
          'order:M10:b',
          'order:M2:c',
          'order:M1:d',
          'orderXM1:e',
          'ORDER:M1:f',
          'payout:M1:g',
        ];
        for (const id of ids) await store.appendToStream(id, [newEvent()], 'no_stream');
        const ofM1 = await store.readAll({ streamPrefix: 'order:M1:' });
        expect(ofM1.map((e) => e.streamId)).toEqual(['order:M1:a', 'order:M1:d']);
        // '_' and '%' must not act as wildcards.
        expect(await store.readAll({ streamPrefix: 'order_M1' })).toEqual([]);
        expect(await store.readAll({ streamPrefix: 'order%' })).toEqual([]);
        const afterFirst = await store.readAll({
          streamPrefix: 'order:',
          after: ofM1[0].position,
          maxCount: 2,
        });
        expect(afterFirst.map((e) => e.streamId)).toEqual(['order:M10:b', 'order:M2:c']);
      });
    });

    describe('readStream from a revision', () => {
      it('returns the events from that revision on, and none once past the head', async () => {
        await store.appendToStream('s', [newEvent({ i: 0 }), newEvent({ i: 1 })], 'no_stream');
        await store.appendToStream('s', [newEvent({ i: 2 })], 1);
        const from1 = await store.readStream('s', { fromRevision: 1 });
        expect(from1.map((e) => [e.revision, e.data])).toEqual([
          [1, { i: 1 }],
          [2, { i: 2 }],
        ]);
        expect(await store.readStream('s', { fromRevision: 3 })).toEqual([]);
        expect(await store.readStream('s', { fromRevision: 0 })).toHaveLength(3);
        expect(await store.readStream('missing', { fromRevision: 0 })).toEqual([]);
      });

      it('refuses a revision the stream never reached: a stream never shrinks', async () => {
        await store.appendToStream('s', [newEvent(), newEvent()], 'no_stream');
        for (const [streamId, fromRevision] of [
          ['s', 3],
          ['missing', 1],
        ] as const) {
          const error = await rejection(store.readStream(streamId, { fromRevision }));
          expect(error).toBeInstanceOf(StreamIntegrityError);
          expect(error).toMatchObject({ streamId });
        }
      });

      it('rejects a fromRevision that is not a non-negative integer', async () => {
        for (const fromRevision of [-1, 1.5, Number.NaN])
          await expect(store.readStream('s', { fromRevision })).rejects.toThrow(TypeError);
      });
    });

    const withStorage = (title: string, test: () => Promise<void>) =>
      it(title, () => (loseEvent ? test() : Promise.resolve()));

    describe('a damaged stream', () => {
      beforeEach(async () => {
        await store.appendToStream('s', [newEvent({ i: 0 }), newEvent({ i: 1 })], 'no_stream');
        await store.appendToStream('s', [newEvent({ i: 2 }), newEvent({ i: 3 })], 1);
        await store.appendToStream('healthy', [newEvent()], 'no_stream');
      });

      async function expectDamaged(found: RegExp): Promise<void> {
        const error = await rejection(store.readStream('s'));
        expect(error).toBeInstanceOf(StreamIntegrityError);
        expect(error).toMatchObject({ streamId: 's' });
        expect((error as Error).message).toMatch(found);
        expect(await store.readStream('healthy')).toHaveLength(1);
      }

      withStorage('is refused when an event in the middle is missing', async () => {
        await loseEvent!('s', 1);
        await expectDamaged(/revision 2 where revision 1 was expected/);
      });

      withStorage('is refused when its first event is missing', async () => {
        await loseEvent!('s', 0);
        await expectDamaged(/revision 1 where revision 0 was expected/);
      });

      withStorage('is refused when its last event is missing', async () => {
        await loseEvent!('s', 3);
        await expectDamaged(/recorded as revision 3 but its events end at revision 2/);
      });

      withStorage(
        'is refused when none of its events is found, and no new stream starts on it',
        async () => {
          for (const revision of [0, 1, 2, 3]) await loseEvent!('s', revision);
          await expectDamaged(/recorded as revision 3 but its events end at no event/);
          const head = await store.headPosition();
          await expect(
            store.appendToStream('s', [newEvent({ second: 'creation' })], 'no_stream'),
          ).rejects.toThrow(/damaged|expected/);
          expect(await store.headPosition()).toBe(head);
          await expect(store.readStream('s')).rejects.toThrow(StreamIntegrityError);
        },
      );
    });

    describe('subscribe', () => {
      it('catches up, then goes live with no gap or duplicate while appends run concurrently', async () => {
        // More than one catch-up batch (500) already stored.
        for (let i = 0; i < 12; i++) {
          await store.appendToStream(
            `order:M${i % 3}:${i}`,
            Array.from({ length: 100 }, (_, k) => newEvent({ i, k })),
            'no_stream',
          );
        }
        const subscription = store.subscribe();
        const writing = (async () => {
          for (let round = 0; round < 10; round++) {
            await Promise.all(
              Array.from({ length: 5 }, (_, k) =>
                store.appendToStream(`live:${k}`, [newEvent({ round, k })], 'any'),
              ),
            );
            await new Promise((resolve) => setImmediate(resolve));
          }
        })();
        const received = await take(subscription, 1250);
        await writing;
        await subscription.close();
        const all = await store.readAll({ maxCount: 5000 });
        expect(all).toHaveLength(1250);
        expect(received.map((e) => e.eventId)).toEqual(all.map((e) => e.eventId));
      });

      const fed = options.feedsSubscriptions ? it : it.skip;
      fed('hands its own commits to an up-to-date subscription without reading', async () => {
        await store.appendToStream('s', [newEvent({ n: 0 })], 'no_stream');
        const subscription = store.subscribe({ streamPrefix: 's' });
        await take(subscription, 1); // caught up by reading
        const readAll = jest.spyOn(store, 'readAll');
        const waiting = take(subscription, 2);
        await store.appendToStream('other', [newEvent()], 'no_stream');
        const appended = await store.appendToStream('s', [newEvent({ n: 1 }), newEvent()], 0);
        expect(await waiting).toEqual(appended.events);
        expect(readAll).not.toHaveBeenCalled();
        await subscription.close();
      });

      it('delivers an event appended after the subscriber is already waiting', async () => {
        const subscription = store.subscribe();
        const waiting = take(subscription, 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const appended = await store.appendToStream('s', [newEvent({ late: true })], 'no_stream');
        const [event] = await waiting;
        expect(event.position).toBe(appended.position);
        expect(event.data).toEqual({ late: true });
        await subscription.close();
      });

      it('starts after the given position and filters by stream prefix, in catch-up and live', async () => {
        const positions = [];
        for (let i = 0; i < 6; i++) {
          positions.push(
            (await store.appendToStream(`order:M${i % 2}:${i}`, [newEvent({ i })], 'no_stream'))
              .position,
          );
        }
        const subscription = store.subscribe({ after: positions[1], streamPrefix: 'order:M0:' });
        const caughtUp = await take(subscription, 2);
        expect(caughtUp.map((e) => e.data)).toEqual([{ i: 2 }, { i: 4 }]);
        await store.appendToStream('order:M1:live', [newEvent({ i: 'skip' })], 'no_stream');
        await store.appendToStream('order:M0:live', [newEvent({ i: 'live' })], 'no_stream');
        const [live] = await take(subscription, 1);
        expect(live.data).toEqual({ i: 'live' });
        await subscription.close();
      });

      it('ends iteration on close, including a pending next()', async () => {
        await store.appendToStream('s', [newEvent()], 'no_stream');
        const subscription = store.subscribe();
        const iterator = subscription[Symbol.asyncIterator]();
        expect((await iterator.next()).done).toBe(false);
        const pending = iterator.next();
        await subscription.close();
        expect(await pending).toEqual({ done: true, value: undefined });
        await store.appendToStream('s', [newEvent()], 0);
        expect((await iterator.next()).done).toBe(true);
      });

      it('stops on break out of for-await', async () => {
        for (let i = 0; i < 3; i++) await store.appendToStream(`s${i}`, [newEvent()], 'no_stream');
        const subscription = store.subscribe();
        let seen = 0;
        for await (const event of subscription) {
          expect(event.streamId).toBe('s0');
          seen++;
          break;
        }
        expect(seen).toBe(1);
        expect((await subscription[Symbol.asyncIterator]().next()).done).toBe(true);
      });

      it('is ended by closing the store', async () => {
        const subscription = store.subscribe();
        const pending = subscription[Symbol.asyncIterator]().next();
        await store.close();
        expect((await pending).done).toBe(true);
      });
    });

    describe('close', () => {
      it.each([0, 1, 2, 3, 4, 5, 6])(
        'ends a filtered subscription cleanly when the store closes %i microtasks into a read',
        async (ticks) => {
          await store.appendToStream('order:M1:1', [newEvent()], 'no_stream');
          const iterator = store.subscribe({ streamPrefix: 'order:M2:' })[Symbol.asyncIterator]();
          const pending = iterator.next();
          for (let i = 0; i < ticks; i++) await Promise.resolve();
          await store.close();
          await expect(pending).resolves.toEqual({ done: true, value: undefined });
        },
      );

      it('commits appends issued before close, then rejects appends and reads', async () => {
        const appending = Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.appendToStream(`s${i}`, [newEvent()], 'no_stream'),
          ),
        );
        await store.close();
        expect(await appending).toHaveLength(20);
        await expect(store.appendToStream('s', [newEvent()], 'any')).rejects.toThrow(/closed/);
        await expect(store.readAll()).rejects.toThrow(/closed/);
        await store.close(); // idempotent
      });
    });
  });
}
