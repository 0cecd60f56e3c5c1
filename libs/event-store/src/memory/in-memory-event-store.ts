import { CatchUpSubscriptions } from '../catch-up-subscription';
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
import { revisionMatches, serializeAppend, SerializedEvent } from '../new-events';
import { checkHead, checkRevisionRun, fromRevisionOf, headMismatch } from '../stream-integrity';

interface Row extends SerializedEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly position: GlobalPosition;
  readonly recordedAt: string;
}

const DEFAULT_READ_ALL_COUNT = 1000;

/**
 * Same semantics as the SQLite adapter, for fast tests. Events are kept as JSON text and
 * parsed on every read, so callers can neither mutate stored events nor see non-JSON values
 * survive (a Date comes back as a string, exactly as from SQLite).
 */
export class InMemoryEventStore implements EventStore {
  private readonly rows: Row[] = [];
  private readonly streams = new Map<string, number[]>(); // stream id → indexes into rows
  /** Each stream's last revision, kept apart from its index as the SQLite adapter does. */
  private readonly heads = new Map<string, number>();
  private readonly eventIds = new Set<string>();
  private readonly subscriptions = new CatchUpSubscriptions(this, { batchSize: 500 });
  private closed = false;

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    this.assertOpen();
    const serialized = serializeAppend(streamId, events, expectedRevision);
    const indexes = this.streams.get(streamId) ?? [];
    const actual = this.heads.get(streamId) ?? -1;
    if (indexes.length - 1 !== actual) throw headMismatch(streamId, indexes.length - 1, actual);
    if (!revisionMatches(expectedRevision, actual)) {
      throw new WrongExpectedRevisionError(
        streamId,
        expectedRevision,
        actual === -1 ? 'no_stream' : actual,
      );
    }
    const ids = new Set<string>();
    for (const { eventId } of serialized) {
      if (ids.has(eventId) || this.eventIds.has(eventId))
        throw new DuplicateEventIdError(streamId, eventId);
      ids.add(eventId);
    }
    const recordedAt = new Date().toISOString();
    const before = BigInt(this.rows.length);
    for (const event of serialized) {
      indexes.push(this.rows.length);
      this.eventIds.add(event.eventId);
      this.rows.push({
        ...event,
        streamId,
        revision: indexes.length - 1,
        position: BigInt(this.rows.length + 1),
        recordedAt,
      });
    }
    this.streams.set(streamId, indexes);
    this.heads.set(streamId, indexes.length - 1);
    // One parsed copy, shared by the caller and the subscriptions, as the SQLite adapter does.
    const committed = this.rows
      .slice(-serialized.length)
      .map((row) => Object.freeze(toStored(row)));
    this.subscriptions.notify({ before, events: committed });
    const last = committed[committed.length - 1];
    return { nextExpectedRevision: last.revision, position: last.position, events: committed };
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    this.assertOpen();
    const from = fromRevisionOf(options);
    // Index i holds revision i unless the index is damaged, which the checks then report.
    const events = (this.streams.get(streamId) ?? [])
      .slice(from)
      .map((index) => toStored(this.rows[index]));
    checkHead(streamId, checkRevisionRun(streamId, events, from), this.heads.get(streamId) ?? -1);
    return events;
  }

  /** Test hook: drops one event from its stream's index, as a damaged index would. */
  loseFromIndexForTests(streamId: string, revision: number): void {
    const indexes = this.streams.get(streamId) ?? [];
    this.streams.set(
      streamId,
      indexes.filter((index) => this.rows[index].revision !== revision),
    );
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    const { after, maxCount = DEFAULT_READ_ALL_COUNT, streamPrefix } = options;
    const result: StoredEvent[] = [];
    // Position p lives at index p - 1.
    for (
      let i = after === undefined ? 0 : Number(after);
      i < this.rows.length && result.length < maxCount;
      i++
    ) {
      if (streamPrefix === undefined || this.rows[i].streamId.startsWith(streamPrefix))
        result.push(toStored(this.rows[i]));
    }
    return result;
  }

  subscribe(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    return this.subscriptions.subscribe(options);
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    this.assertOpen();
    return this.rows.length === 0 ? undefined : BigInt(this.rows.length);
  }

  async listStreams(prefix: string, each: (streamId: string) => void): Promise<void> {
    this.assertOpen();
    for (const streamId of this.heads.keys()) if (streamId.startsWith(prefix)) each(streamId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscriptions.closeAll();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store is closed');
  }
}

function toStored(row: Row): StoredEvent {
  return {
    streamId: row.streamId,
    revision: row.revision,
    position: row.position,
    eventId: row.eventId,
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    recordedAt: row.recordedAt,
  };
}
