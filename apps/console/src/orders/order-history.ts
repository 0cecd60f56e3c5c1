import type { EventStoreSelection } from '@gateway/config';
import { orderStreamId } from '@gateway/domain';
import {
  KurrentDbEventStore,
  SqliteEventLog,
  type EventReader,
  type StoredEvent,
} from '@gateway/event-store';
import { join } from 'node:path';

/** Events kept of the streams read lately (a 1,000-transaction order has ~1,000; a few MB). */
export const CACHED_EVENTS = 5_000;

/**
 * Reads an order's stream from the gateway's event store, as the ledger CLI does: the data
 * directory's events.db read-only (WAL lets it read beside the gateway's writer), or the KurrentDB
 * cluster the gateway is configured with. Never appends. The read is bounded: an order holds at
 * most GATEWAY_MAX_TRANSACTIONS_PER_ORDER transactions (a few events each). Opened when first
 * needed; a failed read closes it, so the next request opens the store again.
 *
 * A stream's events never change once written, so the streams read lately are kept (up to
 * CACHED_EVENTS events, the least recently read dropped first) and read again only from their
 * next revision: moving along a long order's timeline reads what was appended since, not the
 * whole stream (parsing 1,000 events' JSON is most of the page's cost).
 */
export class OrderHistory {
  private opened: EventReader | undefined;
  /** Stream id → its events, least recently read first. */
  private readonly cache = new Map<string, StoredEvent[]>();
  private cached = 0;

  constructor(
    private readonly dataDir: string,
    private readonly selection: EventStoreSelection,
    private readonly warn: (message: string) => void = console.error,
    private readonly cachedEvents = CACHED_EVENTS,
  ) {}

  /** The order's events in stream order (none: no such order); undefined while unreadable. */
  async events(merchantId: string, orderId: string): Promise<StoredEvent[] | undefined> {
    const streamId = orderStreamId(merchantId, orderId);
    try {
      this.opened ??= this.open();
      const known = this.cache.get(streamId);
      const from = known && known[known.length - 1].revision + 1;
      const read = await this.opened.readStream(
        streamId,
        from === undefined ? undefined : { fromRevision: from },
      );
      const events = known ? [...known, ...read] : read;
      this.keep(streamId, events);
      return events;
    } catch (error) {
      this.warn(`event store not readable: ${(error as Error).message}`);
      await this.close();
      return undefined;
    }
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    this.cache.clear();
    this.cached = 0;
    await opened?.close();
  }

  private keep(streamId: string, events: StoredEvent[]): void {
    this.cached -= this.cache.get(streamId)?.length ?? 0;
    this.cache.delete(streamId);
    if (events.length === 0 || events.length > this.cachedEvents) return;
    this.cache.set(streamId, events);
    this.cached += events.length;
    for (const [oldest, dropped] of this.cache) {
      if (this.cached <= this.cachedEvents) break;
      this.cache.delete(oldest);
      this.cached -= dropped.length;
    }
  }

  private open(): EventReader {
    if (this.selection.kind === 'kurrentdb')
      return new KurrentDbEventStore({ connectionString: this.selection.connectionString });
    return SqliteEventLog.open(join(this.dataDir, 'events.db'));
  }
}
