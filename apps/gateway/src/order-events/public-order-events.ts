import { parseOrderStreamId, type CardMask } from '@gateway/domain';
import type { EventStore, StoredEvent } from '@gateway/event-store';
import type { PublicOrderEvent } from '@gateway/order-events';
import { buildPublicOrderEvent, cardMaskFor, MASKED_VIEW } from '@gateway/order-view';
import { Inject, Injectable } from '@nestjs/common';
import type { MerchantRegistry } from '@gateway/merchants';
import { EVENT_STORE, MERCHANT_REGISTRY } from '../tokens';
import { OrderFolds } from './order-folds';

/**
 * Turns stored order events into public ones (libs/order-view, buildPublicOrderEvent) for the
 * relay, which builds each event once for the bus, and for the live feeds, which build it for
 * their own credentials; all of them from the order as the event left it (OrderFolds, shared).
 */
@Injectable()
export class PublicOrderEvents {
  private readonly folds: OrderFolds;

  constructor(
    @Inject(EVENT_STORE) store: Pick<EventStore, 'readStream'>,
    @Inject(MERCHANT_REGISTRY) private readonly merchants: Pick<MerchantRegistry, 'find'>,
  ) {
    this.folds = new OrderFolds(store);
  }

  /**
   * For the bus (Kafka, the in-process bus and so webhooks), which has no credentials: what a
   * GET under Basic authentication shows, by the merchant's masking setting of the moment.
   */
  async forBus(events: readonly StoredEvent[]): Promise<PublicOrderEvent[]> {
    const built: PublicOrderEvent[] = [];
    for (const event of events) {
      const merchant = this.merchants.find(parseOrderStreamId(event.streamId)?.merchantId ?? '');
      built.push(await this.build(event, cardMaskFor(merchant ?? MASKED_VIEW, false)));
    }
    return built;
  }

  async build(event: StoredEvent, cardMask: CardMask): Promise<PublicOrderEvent> {
    return buildPublicOrderEvent(await this.folds.after(event), event, { cardMask });
  }
}
