import {
  SqliteDeliveryStore,
  type DeliveryDetail,
  type DeliveryPage,
  type DeliveryQuery,
  type DeliveryReader,
  type DeliverySummary,
} from '@gateway/webhooks';
import { orderStreamId } from '@gateway/domain';

/** At most this many dead letters are counted for a confirmation (and redelivered per merchant). */
const DEAD_LETTERS_COUNTED = 10_000;

/**
 * The gateway's webhook delivery store (webhooks.db), opened read-only when first needed: the
 * console never writes it (redeliveries go through the gateway's operator API). A failed read
 * closes it so the next request opens the file again; undefined means not readable now.
 */
export class Deliveries {
  private opened: DeliveryReader | undefined;

  constructor(
    private readonly file: string,
    private readonly warn: (message: string) => void = console.error,
  ) {}

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

  close(): void {
    void this.opened?.close();
    this.opened = undefined;
  }

  private read<T>(reading: (log: DeliveryReader) => T): T | undefined {
    try {
      this.opened ??= SqliteDeliveryStore.openReadOnly(this.file);
      return reading(this.opened);
    } catch (error) {
      this.warn(`webhook delivery store not readable: ${(error as Error).message}`);
      this.close();
      return undefined;
    }
  }
}
