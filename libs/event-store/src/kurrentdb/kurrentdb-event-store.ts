import {
  ANY,
  BACKWARDS,
  END,
  excludeSystemEvents,
  Filter,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  ResolvedEvent,
  START,
  StreamNotFoundError,
  StreamState,
  streamNameFilter,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import {
  AppendResult,
  DuplicateEventIdError,
  EventStore,
  ExpectedRevision,
  GlobalPosition,
  NewEvent,
  ReadAllOptions,
  StoredEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from '../event-store.port';
import { serializeAppend } from '../new-events';
import { KurrentDbSubscription, ResubscribeTuning } from './kurrentdb-subscription';

export interface KurrentDbEventStoreOptions {
  /** e.g. `kurrentdb://127.0.0.1:2113?tls=false`. */
  readonly connectionString: string;
  /**
   * Prepended to every stream id on the server and stripped on the way back, so several stores
   * (test runs, environments) can share one server without seeing each other's events.
   */
  readonly namespace?: string;
  /** How long a dropped subscription waits before resubscribing (doubling up to the max). */
  readonly resubscribe?: Partial<ResubscribeTuning>;
}

const DEFAULT_READ_ALL_COUNT = 1000;
const DEFAULT_RESUBSCRIBE: ResubscribeTuning = { initialDelayMs: 100, maxDelayMs: 5_000 };

/**
 * The EventStore port on KurrentDB (formerly EventStoreDB) through @kurrent/kurrentdb-client.
 * - Expected revisions map to stream states: 'no_stream' ↔ NO_STREAM, 'any' ↔ ANY, n ↔ BigInt(n).
 * - Global positions are $all commit positions (bigint in the port; callers that persist them
 *   write them as decimal strings, never as JSON numbers).
 * - Only the gateway's events are visible: $all reads exclude system streams/events ($…).
 * - Event ids must be UUIDs (the protocol's id type). KurrentDB makes an exact retry of an
 *   append idempotent and does not check ids across streams, so DuplicateEventIdError is raised
 *   only for an id repeated within one append.
 */
export class KurrentDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly resubscribe: ResubscribeTuning;
  private readonly subscriptions = new Set<KurrentDbSubscription>();
  /** Per-stream chains: appends to one stream reach the server in call order. */
  private readonly streamTails = new Map<string, Promise<unknown>>();
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;
  private readonly namespace: string;

  constructor(options: KurrentDbEventStoreOptions) {
    this.client = KurrentDBClient.connectionString(options.connectionString);
    this.namespace = options.namespace ?? '';
    this.resubscribe = { ...DEFAULT_RESUBSCRIBE, ...options.resubscribe };
  }

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    this.assertOpen();
    const serialized = serializeAppend(streamId, events, expectedRevision);
    const ids = new Set<string>();
    for (const { eventId } of serialized) {
      if (ids.has(eventId)) throw new DuplicateEventIdError(streamId, eventId);
      ids.add(eventId);
    }
    // Parse back the caller-side snapshot: later mutation of `events` cannot reach the server.
    const data = serialized.map((event) =>
      jsonEvent({
        id: event.eventId,
        type: event.type,
        data: JSON.parse(event.data),
        metadata: JSON.parse(event.metadata),
      }),
    );
    const previous = this.streamTails.get(streamId) ?? Promise.resolve();
    const append = previous.then(() => this.send(streamId, data, expectedRevision));
    const tail = append.catch(() => undefined);
    this.streamTails.set(streamId, tail);
    this.pending.add(tail);
    void tail.then(() => {
      this.pending.delete(tail);
      if (this.streamTails.get(streamId) === tail) this.streamTails.delete(streamId);
    });
    return append;
  }

  async readStream(streamId: string): Promise<StoredEvent[]> {
    this.assertOpen();
    const events: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(this.namespace + streamId, {
        fromRevision: START,
        direction: FORWARDS,
      })) {
        events.push(this.toStored(resolved));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    const { after, maxCount = DEFAULT_READ_ALL_COUNT, streamPrefix } = options;
    if (maxCount <= 0) return [];
    const events: StoredEvent[] = [];
    // A forward $all read includes the event at its start position; the port's `after` excludes it.
    for await (const resolved of this.client.readAll({
      fromPosition: after === undefined ? START : { commit: after, prepare: after },
      direction: FORWARDS,
      maxCount: after === undefined ? maxCount : maxCount + 1,
      filter: this.filter(streamPrefix),
    })) {
      const event = this.toStored(resolved);
      if (after !== undefined && event.position <= after) continue;
      events.push(event);
      if (events.length === maxCount) break;
    }
    return events;
  }

  subscribe(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    const subscription = new KurrentDbSubscription(
      (after) =>
        this.client.subscribeToAll({
          fromPosition: after === undefined ? START : { commit: after, prepare: after },
          filter: this.filter(options.streamPrefix),
        }),
      (resolved) => this.toStored(resolved),
      options.after,
      this.resubscribe,
      (closed) => this.subscriptions.delete(closed),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    this.assertOpen();
    for await (const resolved of this.client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1,
      filter: this.filter(undefined),
    })) {
      return this.toStored(resolved).position;
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    // Appends issued before close still complete (the port promises it).
    await Promise.all(this.pending);
    await this.client.dispose();
  }

  private async send(
    streamId: string,
    data: ReturnType<typeof jsonEvent>[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(this.namespace + streamId, data, {
        streamState: toStreamState(expected),
      });
      if (!result.position) throw new Error(`KurrentDB returned no position for '${streamId}'`);
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: result.position.commit,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualState;
        throw new WrongExpectedRevisionError(
          streamId,
          expected,
          typeof actual === 'bigint' ? Number(actual) : 'no_stream',
        );
      }
      throw error;
    }
  }

  /** The gateway's events only: a stream-name prefix, or at least no system ($…) events. */
  private filter(streamPrefix: string | undefined): Filter {
    if (streamPrefix === undefined && this.namespace === '') return excludeSystemEvents();
    return streamNameFilter({ prefixes: [this.namespace + (streamPrefix ?? '')] });
  }

  private toStored(resolved: ResolvedEvent): StoredEvent {
    const event = toStored(resolved);
    return { ...event, streamId: event.streamId.slice(this.namespace.length) };
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store is closed');
  }
}

function toStreamState(expected: ExpectedRevision): StreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
}

function toStored(resolved: ResolvedEvent): StoredEvent {
  const event = resolved.event;
  if (!event) throw new Error('KurrentDB returned a read without an event');
  // Some server versions leave the $all position out of stream reads; the port needs it.
  if (!event.position) throw new Error(`KurrentDB returned no position for '${event.streamId}'`);
  if (!event.isJson) throw new Error(`Event ${event.id} in '${event.streamId}' is not JSON`);
  return {
    eventId: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: event.position.commit,
    data: event.data ?? null,
    metadata: (event.metadata as StoredEvent['metadata'] | undefined) ?? {},
    recordedAt: event.created.toISOString(),
  };
}
