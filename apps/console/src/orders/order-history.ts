import type { EventStoreSelection } from '@gateway/config';
import { orderStreamId } from '@gateway/domain';
import {
  KurrentDbEventStore,
  SqliteEventLog,
  type EventReader,
  type StoredEvent,
} from '@gateway/event-store';
import { join } from 'node:path';

/**
 * Reads an order's stream from the gateway's event store, as the ledger CLI does: the data
 * directory's events.db read-only (WAL lets it read beside the gateway's writer), or the KurrentDB
 * cluster the gateway is configured with. Never appends. The read is bounded: an order holds at
 * most GATEWAY_MAX_TRANSACTIONS_PER_ORDER transactions (a few events each). Opened when first
 * needed; a failed read closes it, so the next request opens the store again.
 */
export class OrderHistory {
  private opened: EventReader | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly selection: EventStoreSelection,
    private readonly warn: (message: string) => void = console.error,
  ) {}

  /** The order's events in stream order (none: no such order); undefined while unreadable. */
  async events(merchantId: string, orderId: string): Promise<StoredEvent[] | undefined> {
    try {
      this.opened ??= this.open();
      return await this.opened.readStream(orderStreamId(merchantId, orderId));
    } catch (error) {
      this.warn(`event store not readable: ${(error as Error).message}`);
      await this.close();
      return undefined;
    }
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    await opened?.close();
  }

  private open(): EventReader {
    if (this.selection.kind === 'kurrentdb')
      return new KurrentDbEventStore({ connectionString: this.selection.connectionString });
    return SqliteEventLog.open(join(this.dataDir, 'events.db'));
  }
}
