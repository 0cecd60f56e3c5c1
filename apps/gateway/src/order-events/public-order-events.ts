import { parseOrderStreamId, type CardMask } from '@gateway/domain';
import type { EventStore, StoredEvent } from '@gateway/event-store';
import type { PublicOrderEvent } from '@gateway/order-events';
import { buildPublicOrderEvent, cardMaskFor, MASKED_VIEW } from '@gateway/order-view';
import { Inject, Injectable } from '@nestjs/common';
import type { MerchantRegistry } from '../merchant/merchant-registry';
import { EVENT_STORE, MERCHANT_REGISTRY } from '../tokens';
import { OrderFolds } from './order-folds';

/** Events built lately, per card mask: the relay and every feed at the head share them. */
const BUILT_KEPT = 1_000;

/**
 * Turns stored order events into public ones (libs/order-view, buildPublicOrderEvent) for the
 * relay and the live feeds: each event is built once per card mask while it is recent, from the
 * order as the event left it (OrderFolds).
 */
@Injectable()
export class PublicOrderEvents {
  private readonly folds: OrderFolds;
  private readonly built = new Map<string, PublicOrderEvent>();

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
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
    const key = `${event.eventId} ${cardMask}`;
    const known = this.built.get(key);
    if (known) return known;
    const built = buildPublicOrderEvent(await this.folds.after(event), event, { cardMask });
    this.built.set(key, built);
    if (this.built.size > BUILT_KEPT) this.built.delete(this.built.keys().next().value!);
    return built;
  }
}
