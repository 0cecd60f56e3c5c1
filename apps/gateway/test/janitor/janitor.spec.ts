import { SimulatedAcquirerLater } from '@gateway/acquirer';
import { orderStreamId, type AcquirerFact, type OrderEvent } from '@gateway/domain';
import { InMemoryEventStore, type EventStore } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  authorized,
  captured,
  created,
  recorded,
  T0,
} from '../../../../libs/domain/test/order.fixtures';
import { AcquirerFactRecorder } from '../../src/acquirer-facts/acquirer-fact.recorder';
import { Janitor } from '../../src/janitor/janitor';
import { JanitorSchedule } from '../../src/janitor/janitor-schedule';
import { KeyedMutex } from '../../src/order/keyed-mutex';
import { OrderRepository } from '../../src/order/order.repository';

const STREAM = orderStreamId('TESTM', 'o-1');
const SECOND = 1000;
const DAY = 86_400 * SECOND;
const SCHEDULE = [30 * SECOND, 300 * SECOND, 3600 * SECOND, DAY];
const quiet = { info: () => undefined, warn: () => undefined };

const nodes: Node[] = [];
afterEach(async () => {
  await Promise.all(nodes.map((node) => node.janitor.close()));
  nodes.length = 0;
});

/** A node's janitor: its own schedule file, its own recorder, the one store; time set by the test. */
class Node {
  time = Date.parse(T0);
  readonly schedule = new JanitorSchedule(join(mkdtempSync(join(tmpdir(), 'janitor-')), 'j.db'));
  readonly recorder: Pick<AcquirerFactRecorder, 'record'>;
  readonly janitor: Janitor;

  constructor(
    store: EventStore,
    outcomeAfterMs = 20 * SECOND,
    record?: (fact: AcquirerFact) => ReturnType<AcquirerFactRecorder['record']>,
    schedule?: JanitorSchedule,
  ) {
    if (schedule) this.schedule = schedule;
    const recorder = new AcquirerFactRecorder(new OrderRepository(store), new KeyedMutex());
    this.recorder = { record: record ?? ((fact) => recorder.record(fact)) };
    this.janitor = new Janitor({
      events: store,
      schedule: this.schedule,
      later: new SimulatedAcquirerLater({
        outcomeAfterMs,
        disputeAfterMs: 30 * SECOND,
        chargebackAfterMs: 30 * SECOND,
      }),
      recorder: this.recorder,
      now: () => new Date(this.time),
      inquiryScheduleMs: SCHEDULE,
      log: quiet,
    });
    nodes.push(this);
  }

  passAt(afterMs: number) {
    this.time = Date.parse(T0) + afterMs;
    return this.janitor.pass();
  }
}

async function given(store: EventStore, events: readonly OrderEvent[]) {
  await store.appendToStream(
    STREAM,
    events.map((event) => ({ eventId: randomUUID(), ...event, metadata: {} })),
    'no_stream',
  );
}

const unknownAuthorization = (amount: number): OrderEvent => ({
  type: 'AuthorizationProcessed',
  data: recorded('AUTHORIZATION', 'auth-1', amount, { gatewayCode: 'UNKNOWN' }),
});

/** The types of the events after the `given` ones. */
async function recordedTypes(store: EventStore, given = 2): Promise<string[]> {
  return (await store.readStream(STREAM)).slice(given).map((event) => event.type);
}

describe('Janitor: UNKNOWN transactions', () => {
  let store: InMemoryEventStore;
  beforeEach(() => (store = new InMemoryEventStore()));

  it('asks 30 s after the request; an even amount is then APPROVED', async () => {
    await given(store, [created(), unknownAuthorization(100_000)]);
    const node = new Node(store);
    expect(await node.passAt(29 * SECOND)).toEqual({ derived: 2, ran: 0 });
    expect(node.schedule.size()).toBe(4);
    expect(await node.passAt(30 * SECOND)).toEqual({ derived: 0, ran: 1 });
    const [inquired, learned] = (await store.readStream(STREAM)).slice(2);
    expect(inquired).toMatchObject({
      type: 'AcquirerInquired',
      data: { transactionId: 'auth-1', attempt: 1, answer: 'APPROVED' },
      metadata: { causedBy: 'acquirer' },
    });
    expect(learned).toMatchObject({
      type: 'TransactionOutcomeLearned',
      data: { gatewayCode: 'APPROVED' },
    });
    expect(node.schedule.size()).toBe(0);
    expect(await node.passAt(DAY)).toEqual({ derived: 2, ran: 0 });
  });

  it('an odd amount becomes DECLINED', async () => {
    await given(store, [created(), unknownAuthorization(100_001)]);
    await new Node(store).passAt(30 * SECOND);
    expect((await store.readStream(STREAM))[3]).toMatchObject({
      type: 'TransactionOutcomeLearned',
      data: { gatewayCode: 'DECLINED' },
    });
  });

  it('asks on each of the schedule; still UNKNOWN at the last, declines and reverses', async () => {
    await given(store, [created(), unknownAuthorization(100_000)]);
    const node = new Node(store, 2 * DAY);
    for (const due of SCHEDULE) expect((await node.passAt(due)).ran).toBe(1);
    expect(await recordedTypes(store)).toEqual([
      'AcquirerInquired',
      'AcquirerInquired',
      'AcquirerInquired',
      'AcquirerInquired',
      'TransactionOutcomeLearned',
      'AuthorizationReversed',
    ]);
    expect((await store.readStream(STREAM))[5].data).toMatchObject({
      attempt: 4,
      answer: 'UNKNOWN',
    });
    expect(node.schedule.size()).toBe(0);
  });

  it('after a day down, asks once: the first answer known ends the inquiries still due', async () => {
    await given(store, [created(), unknownAuthorization(100_000)]);
    const node = new Node(store);
    expect(await node.passAt(2 * DAY)).toEqual({ derived: 2, ran: 1 });
    expect(await recordedTypes(store)).toEqual(['AcquirerInquired', 'TransactionOutcomeLearned']);
  });

  it('killed after recording, before the schedule knew: the run again records nothing new', async () => {
    await given(store, [created(), unknownAuthorization(100_000)]);
    const recorder = new AcquirerFactRecorder(new OrderRepository(store), new KeyedMutex());
    const dying = new Node(store, undefined, async (fact) => {
      await recorder.record(fact);
      throw new Error('killed');
    });
    expect(await dying.passAt(30 * SECOND)).toEqual({ derived: 2, ran: 0 });
    // The restarted janitor finds the row still due, and the fact already recorded.
    const restarted = new Node(store, undefined, undefined, dying.schedule);
    expect(await restarted.passAt(31 * SECOND)).toEqual({ derived: 2, ran: 0 });
    expect(await recordedTypes(store)).toEqual(['AcquirerInquired', 'TransactionOutcomeLearned']);
    expect(restarted.schedule.size()).toBe(0);
  });

  it('two nodes at once (each with its own schedule) record each inquiry once', async () => {
    await given(store, [created(), unknownAuthorization(100_000)]);
    const [a, b] = [new Node(store), new Node(store)];
    await Promise.all([a.passAt(30 * SECOND), b.passAt(30 * SECOND)]);
    expect(await recordedTypes(store)).toEqual(['AcquirerInquired', 'TransactionOutcomeLearned']);
  });
});

describe('Janitor: what the acquirer tells on its own', () => {
  let store: InMemoryEventStore;
  beforeEach(() => (store = new InMemoryEventStore()));

  it('a .666 capture is disputed 30 s after, and charged back 30 s after the dispute', async () => {
    await given(store, [created(), authorized('auth-1', 100_000), captured('cap-1', 12_666)]);
    const node = new Node(store);
    expect(await node.passAt(29 * SECOND)).toEqual({ derived: 3, ran: 0 });
    expect(await node.passAt(30 * SECOND)).toEqual({ derived: 0, ran: 1 });
    const dispute = (await store.readStream(STREAM))[3];
    expect(dispute).toMatchObject({
      type: 'DisputeOpened',
      data: { targetTransactionId: 'cap-1', amount: 12_666, currency: 'USD' },
      metadata: { causedBy: 'acquirer' },
    });
    expect(await node.passAt(59 * SECOND)).toEqual({ derived: 1, ran: 0 });
    expect(await node.passAt(60 * SECOND)).toEqual({ derived: 0, ran: 1 });
    expect((await store.readStream(STREAM))[4]).toMatchObject({
      type: 'ChargebackProcessed',
      data: {
        id: `CHARGEBACK-${(dispute.data as { disputeId: string }).disputeId}`,
        type: 'CHARGEBACK',
        amount: 12_666,
      },
    });
    expect(node.schedule.size()).toBe(0);
  });

  it('both due at once: the dispute first, then the chargeback, each once', async () => {
    await given(store, [created(), authorized('auth-1', 100_000), captured('cap-1', 12_666)]);
    const node = new Node(store);
    expect(await node.passAt(DAY)).toEqual({ derived: 3, ran: 2 });
    expect(await node.passAt(DAY)).toEqual({ derived: 2, ran: 0 });
    expect(await recordedTypes(store, 3)).toEqual(['DisputeOpened', 'ChargebackProcessed']);
  });

  it('any other capture is left alone', async () => {
    await given(store, [created(), authorized('auth-1', 100_000), captured('cap-1', 12_665)]);
    const node = new Node(store);
    expect(await node.passAt(DAY)).toEqual({ derived: 3, ran: 0 });
    expect(node.schedule.size()).toBe(0);
  });
});
