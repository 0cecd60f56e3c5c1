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
  ReadStreamOptions,
  StoredEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from '../event-store.port';
import { serializeAppend, type SerializedEvent } from '../new-events';
import { checkRevisionRun, fromRevisionOf, headMismatch } from '../stream-integrity';
import type { ChainReport } from '../chain-report';
import { verifyStreamChains, type StreamChainOptions } from './verify-stream-chains';
import { KurrentDbSubscription, ResubscribeTuning } from './kurrentdb-subscription';
import {
  assertNoChainKey,
  chainAppend,
  type ChainedEvent,
  NO_STREAM_TAIL,
  splitChain,
  StreamTailCache,
  type StreamTail,
  tailOf,
  withChain,
} from './stream-chain';

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
/** How often an 'any' append re-reads the tail after another writer came first. */
const ANY_ATTEMPTS = 5;
const DEFAULT_RESUBSCRIBE: ResubscribeTuning = { initialDelayMs: 100, maxDelayMs: 5_000 };

/**
 * The EventStore port on KurrentDB (formerly EventStoreDB) through @kurrent/kurrentdb-client.
 * - Tamper evidence: every event carries, in its metadata under CHAIN_KEY, the hash of its
 *   stream predecessor and its own hash (hash-chain.ts, `streamEventHash`). The predecessor is
 *   the event at the expected revision (from a bounded cache, else read), and the server's
 *   expected-revision check then makes committing a stale predecessor hash impossible.
 * - Expected revisions: 'no_stream' ↔ NO_STREAM, n ↔ BigInt(n) after checking that the stream's
 *   last event is n (a retry of a committed append reports the conflict, as the port says).
 *   'any' is pinned to the revision just read and re-read on a conflict (up to ANY_ATTEMPTS
 *   times), so concurrent 'any' writers still chain correctly; an exact retry of the stream's
 *   last append goes as ANY, which the server answers idempotently without writing.
 * - Global positions are $all commit positions (bigint in the port; callers that persist them
 *   write them as decimal strings, never as JSON numbers).
 * - Only the gateway's events are visible: $all reads exclude system streams/events ($…).
 * - Event ids must be UUIDs (the protocol's id type). KurrentDB does not check ids across
 *   streams, so DuplicateEventIdError is raised only for an id repeated within one append.
 */
export class KurrentDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;
  private readonly resubscribe: ResubscribeTuning;
  private readonly subscriptions = new Set<KurrentDbSubscription>();
  /** Per-stream chains: appends to one stream reach the server in call order. */
  private readonly streamTails = new Map<string, Promise<unknown>>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly tails = new StreamTailCache();
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
    assertNoChainKey(serialized);
    const previous = this.streamTails.get(streamId) ?? Promise.resolve();
    const append = previous.then(() => this.send(streamId, serialized, expectedRevision));
    const tail = append.catch(() => undefined);
    this.streamTails.set(streamId, tail);
    this.pending.add(tail);
    void tail.then(() => {
      this.pending.delete(tail);
      if (this.streamTails.get(streamId) === tail) this.streamTails.delete(streamId);
    });
    return append;
  }

  /**
   * Reads from the event before `fromRevision`, which must be there (streams never shrink), and
   * checks the revisions run without a gap to a head no lower than the last this adapter saw
   * before reading.
   */
  async readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    this.assertOpen();
    const from = fromRevisionOf(options);
    const start = Math.max(0, from - 1);
    // Taken before the read: an append this adapter finishes while the read is on its way may
    // not be in it, and is no sign of damage.
    const seen = Math.max(from - 1, this.tails.revisionOf(streamId));
    const events: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(this.namespace + streamId, {
        fromRevision: BigInt(start),
        direction: FORWARDS,
      })) {
        events.push(this.toStored(resolved));
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    const last = checkRevisionRun(streamId, events, start);
    if (last < seen) throw headMismatch(streamId, last, seen);
    // The caller usually appends next, expecting this revision: its predecessor is known.
    if (events.length) this.tails.remember(streamId, tailOf(events[events.length - 1]));
    return from > 0 ? events.slice(1) : events;
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

  /** Checks every stream's hash chain (verify-stream-chains.ts). */
  verify(options?: StreamChainOptions): Promise<ChainReport> {
    return verifyStreamChains(this, options);
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
    events: readonly SerializedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    for (let attempt = 1; ; attempt += 1) {
      const { tail, state } = await this.predecessor(streamId, events, expected);
      try {
        const chained = chainAppend(streamId, events, tail);
        return await this.write(streamId, chained, { tail, state, expected });
      } catch (error) {
        const pinnedAny = expected === 'any' && error instanceof WrongExpectedRevisionError;
        if (!pinnedAny || attempt === ANY_ATTEMPTS) throw error;
      }
    }
  }

  /** The event an append chains to, and the stream state the server must find for that to hold. */
  private async predecessor(
    streamId: string,
    events: readonly SerializedEvent[],
    expected: ExpectedRevision,
  ): Promise<{ tail: StreamTail; state: StreamState }> {
    if (expected === 'no_stream') {
      // A stream this adapter saw cannot have gone: never let a damaged server start it anew.
      const known = this.tails.revisionOf(streamId);
      if (known >= 0) throw new WrongExpectedRevisionError(streamId, expected, known);
      return { tail: NO_STREAM_TAIL, state: NO_STREAM };
    }
    if (expected !== 'any') {
      const tail = this.tails.at(streamId, expected) ?? tailOf(await this.lastEvent(streamId));
      if (tail.revision !== expected) {
        const actual = tail.revision === -1 ? 'no_stream' : tail.revision;
        throw new WrongExpectedRevisionError(streamId, expected, actual);
      }
      return { tail, state: BigInt(expected) };
    }
    const last = await this.lastEvent(streamId);
    const tail = tailOf(last);
    if (last?.eventId === events[events.length - 1].eventId) return { tail, state: ANY };
    return { tail, state: tail.revision === -1 ? NO_STREAM : BigInt(tail.revision) };
  }

  private async lastEvent(streamId: string): Promise<StoredEvent | undefined> {
    try {
      for await (const resolved of this.client.readStream(this.namespace + streamId, {
        fromRevision: END,
        direction: BACKWARDS,
        maxCount: 1,
      })) {
        return this.toStored(resolved);
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return undefined;
  }

  private async write(
    streamId: string,
    events: readonly ChainedEvent[],
    { tail, state, expected }: { tail: StreamTail; state: StreamState; expected: ExpectedRevision },
  ): Promise<AppendResult> {
    // Built from the caller-side snapshot: later mutation of the caller's events cannot reach the server.
    const data = events.map((event) =>
      jsonEvent({
        id: event.eventId,
        type: event.type,
        data: JSON.parse(event.data),
        metadata: withChain(event),
      }),
    );
    try {
      const result = await this.client.appendToStream(this.namespace + streamId, data, {
        streamState: state,
      });
      if (!result.position) throw new Error(`KurrentDB returned no position for '${streamId}'`);
      const nextExpectedRevision = Number(result.nextExpectedRevision);
      // Not after an idempotent retry the server answered without writing these hashes.
      if (nextExpectedRevision === tail.revision + events.length)
        this.tails.remember(streamId, {
          revision: nextExpectedRevision,
          hash: events[events.length - 1].chain.hash,
        });
      const committed = await this.readCommitted(streamId, nextExpectedRevision, events.length);
      return { nextExpectedRevision, position: result.position.commit, events: committed };
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

  /**
   * The events an append committed, read back: the server assigns their positions and commit
   * time, and its append answer carries neither per event.
   */
  private async readCommitted(
    streamId: string,
    last: number,
    count: number,
  ): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    for await (const resolved of this.client.readStream(this.namespace + streamId, {
      fromRevision: BigInt(last - count + 1),
      direction: FORWARDS,
      maxCount: count,
    })) {
      events.push(this.toStored(resolved));
    }
    return events;
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
    ...splitChain((event.metadata as StoredEvent['metadata'] | undefined) ?? {}),
    recordedAt: event.created.toISOString(),
  };
}
