import type { EventStoreSelection } from '@gateway/config';
import { orderStreamId } from '@gateway/domain';
import { KurrentDbEventStore } from '@gateway/event-store';
import {
  EventStoreDeliveryReader,
  SqliteDeliveryStore,
  type DeliveryDetail,
  type DeliveryPage,
  type DeliveryQuery,
  type DeliveryReader,
  type DeliverySummary,
  type GatewayWebhooksConfig,
} from '@gateway/webhooks';

/** At most this many dead letters are counted for a confirmation (and redelivered per merchant). */
const DEAD_LETTERS_COUNTED = 10_000;
/** How long an action's answer waits for the fold to show what the gateway just did. */
const SETTLE_MS = 2_000;

/** A delivery log opened for reading: the file at once, the event store's fold once caught up. */
interface Opened {
  readonly reader: DeliveryReader;
  ready: boolean;
  /** Why its reads are no longer right (a fold that stopped), if they are not. */
  readonly failure?: () => Error | undefined;
  /** Resolves once it shows what was committed before the call. */
  readonly caughtUp?: () => Promise<void>;
}

/** Where the gateway keeps its deliveries, as its configuration says. */
export type DeliverySource = Pick<GatewayWebhooksConfig, 'deliveryDb' | 'store'>;

/**
 * The gateway's webhook deliveries, read-only, wherever the gateway keeps them: its delivery
 * store (webhooks.db) opened read-only when first needed, or (GATEWAY_WEBHOOK_STORE=event-store)
 * the partition schedules in KurrentDB folded as the gateway's own read side does, from the
 * console's start (pages wait for its first catch-up). The console never writes either:
 * redeliveries go through the gateway's operator API. A failed read closes it so the next request
 * opens it again; undefined means not readable now.
 */
export class Deliveries {
  private opened: Opened | undefined;

  constructor(
    private readonly source: DeliverySource,
    private readonly eventStore: EventStoreSelection,
    private readonly warn: (message: string) => void = console.error,
  ) {
    if (source.store === 'event-store') this.opened = this.open();
  }

  list(query: DeliveryQuery): DeliveryPage | undefined {
    return this.read((log) => log.list(query));
  }

  /** An order's deliveries, oldest first; undefined when the store cannot be read. */
  ofOrder(merchantId: string, orderId: string): DeliverySummary[] | undefined {
    return this.read((log) => log.ofOrder(orderStreamId(merchantId, orderId)));
  }

  /** One delivery with its attempts (undefined: not readable); null when there is none. */
  get(id: string, merchantId?: string): DeliveryDetail | null | undefined {
    return this.read((log) => log.get(id, merchantId) ?? null);
  }

  /** Dead-lettered deliveries per merchant (all, or one merchant's), for a redelivery of them all. */
  deadLettered(merchantId?: string): Map<string, number> | undefined {
    return this.read((log) => {
      const counts = new Map<string, number>();
      let before: number | undefined;
      let seen = 0;
      do {
        const query = { status: 'DEAD_LETTERED', limit: 100, before, merchantId } as const;
        const page = log.list(query);
        for (const d of page.deliveries)
          counts.set(d.merchantId, (counts.get(d.merchantId) ?? 0) + 1);
        seen += page.deliveries.length;
        before = page.next;
      } while (before !== undefined && seen < DEAD_LETTERS_COUNTED);
      return counts;
    });
  }

  /**
   * After an action the gateway answered: resolves once the reads show what it committed (at
   * once for the file; for the event store's fold, its catch-up, waited for at most SETTLE_MS).
   */
  async settled(): Promise<void> {
    const caughtUp = this.opened?.caughtUp?.().catch(() => undefined);
    if (!caughtUp) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise((done) => (timer = setTimeout(done, SETTLE_MS)));
    await Promise.race([caughtUp, late]).finally(() => clearTimeout(timer));
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    await opened?.reader.close();
  }

  private read<T>(reading: (log: DeliveryReader) => T): T | undefined {
    try {
      this.opened ??= this.open();
      if (!this.opened.ready) return undefined;
      const failure = this.opened.failure?.();
      if (failure) throw failure;
      return reading(this.opened.reader);
    } catch (error) {
      this.unreadable(error);
      return undefined;
    }
  }

  private open(): Opened {
    if (this.source.store === 'sqlite')
      return { reader: SqliteDeliveryStore.openReadOnly(this.source.deliveryDb), ready: true };
    if (this.eventStore.kind !== 'kurrentdb')
      throw new Error('GATEWAY_WEBHOOK_STORE=event-store needs GATEWAY_EVENT_STORE=kurrentdb');
    const events = new KurrentDbEventStore({ connectionString: this.eventStore.connectionString });
    const reader = new EventStoreDeliveryReader(events, { ownsStore: true });
    const opened: Opened = {
      reader,
      ready: false,
      failure: () => reader.failure,
      caughtUp: () => reader.caughtUp(),
    };
    reader.caughtUp().then(
      () => (opened.ready = true),
      (error: unknown) => {
        // Only this one: a later request may have opened another meanwhile.
        if (this.opened === opened) this.unreadable(error);
      },
    );
    return opened;
  }

  private unreadable(error: unknown): void {
    this.warn(`webhook deliveries not readable: ${(error as Error).message}`);
    void this.close();
  }
}
