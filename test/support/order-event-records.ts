import { readTopic, recordText, type KafkaMockCluster, type RawRecord } from './kafka-mock-cluster';
import { authorizeBody, merchantClient, type RunningGateway } from './gateway-process';
import type { KurrentDbStandin } from './kurrentdb-standin/standin-server';

// What the relay suites check of the order events on a Kafka topic (at-least-once, order per
// order, no card data), and the load they send.

/** Every card number and security code these suites send. */
const CARD = '5123450000000008';
const SECURITY_CODE = '100';
const MASKED_CARD = '512345xxxxxx0008';

export interface Committed {
  readonly eventId: string;
  readonly streamId: string;
  readonly revision: number;
}

/** Every order event in the stand-in's log (of orders whose id starts with `orderPrefix`), in commit order. */
export function committedOrderEvents(standin: KurrentDbStandin, orderPrefix = ''): Committed[] {
  const events: Committed[] = [];
  for (let i = 0; i < standin.log.length; i++) {
    const { id, streamId, revision } = standin.log.at(i)!;
    if (streamId.startsWith('order:') && streamId.split(':')[2].startsWith(orderPrefix))
      events.push({ eventId: id, streamId, revision });
  }
  return events;
}

/** Reads the topic until every committed event id is on it. */
export function readAllCommitted(cluster: KafkaMockCluster, topic: string, committed: Committed[]) {
  const wanted = new Set(committed.map((e) => e.eventId));
  const seen = new Set<string>();
  return readTopic(cluster.brokers, topic, (records) => {
    const last = records[records.length - 1];
    if (wanted.has(last.headers['event-id'])) seen.add(last.headers['event-id']);
    return seen.size === wanted.size;
  });
}

/**
 * The at-least-once promise: every committed event is on the topic; an event seen twice is the
 * same record byte for byte; one order's records share a partition and, duplicates aside, come in
 * revision order. No record holds a card number or security code, in key, headers or value.
 */
export function expectAtLeastOnce(records: RawRecord[], committed: Committed[]) {
  const byId = new Map<string, RawRecord>();
  let duplicates = 0;
  for (const record of records) {
    const id = record.headers['event-id'];
    const first = byId.get(id);
    if (first) {
      duplicates++;
      expect([record.key, record.headers, record.value]).toEqual([
        first.key,
        first.headers,
        first.value,
      ]);
    } else byId.set(id, record);
  }
  for (const event of committed) {
    const record = byId.get(event.eventId);
    expect(record).toBeDefined();
    const published = JSON.parse(record!.value);
    expect([`order:${published.merchantId}:${published.orderId}`, published.revision]).toEqual([
      event.streamId,
      event.revision,
    ]);
    expect(record!.key).toBe(`${published.merchantId}:${published.orderId}`);
    expect(record!.headers).toMatchObject({
      'event-type': published.type,
      'stream-revision': String(published.revision),
      'global-position': published.position,
      'merchant-id': published.merchantId,
      'spec-version': '2',
    });
  }
  expect(byId.size).toBe(committed.length);

  const perOrder = new Map<string, RawRecord[]>();
  for (const record of records)
    perOrder.set(record.key, [...(perOrder.get(record.key) ?? []), record]);
  for (const list of perOrder.values()) {
    expect(new Set(list.map((r) => r.partition)).size).toBe(1);
    list.sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset)));
    // A redelivered batch starts again at or before where it was: the highest revision seen
    // never goes down by a gap, and each first sighting is the next revision.
    let expectedNext = 0;
    for (const record of list) {
      const revision = Number(record.headers['stream-revision']);
      expect(revision).toBeLessThanOrEqual(expectedNext);
      if (revision === expectedNext) expectedNext++;
    }
  }
  for (const record of records) {
    const text = recordText(record);
    expect(text).not.toContain(CARD);
    const published = JSON.parse(record.value);
    for (const [key] of entries(published)) expect(key).not.toBe('securityCode');
    // What the request carried (the order's `position` and the API `version` are 100 at times).
    for (const [key, value] of entries(published.transaction ?? {}))
      if (key !== 'version') expect([key, value]).not.toEqual([key, SECURITY_CODE]);
  }
  // The scan looks where the card would be: the authorizations carry its mask.
  expect(records.some((r) => r.value.includes(MASKED_CARD))).toBe(true);
  return { duplicates };
}

/** Every key and scalar value of a JSON value, at any depth. */
function entries(value: unknown, key = ''): [string, unknown][] {
  if (value === null || typeof value !== 'object') return [[key, value]];
  return Object.entries(value).flatMap(([k, v]) => [[k, v] as [string, unknown], ...entries(v, k)]);
}

/** Sends AUTHORIZE then CAPTURE for each order, `concurrency` orders at a time; returns statuses. */
export async function authorizeAndCapture(
  gateway: RunningGateway,
  orders: string[],
  concurrency = 16,
): Promise<number[]> {
  const api = merchantClient(gateway);
  const statuses: number[] = [];
  const queue = [...orders];
  const capture = { apiOperation: 'CAPTURE', transaction: { amount: '4.00', currency: 'USD' } };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let order = queue.shift(); order; order = queue.shift()) {
        statuses.push(
          (await api.put(`/order/${order}/transaction/a`, authorizeBody('9.00'))).status,
        );
        statuses.push((await api.put(`/order/${order}/transaction/c`, capture)).status);
      }
    }),
  );
  return statuses;
}
