import type { MerchantRegistry } from '@gateway/merchants';
import { cardMaskFor } from '@gateway/order-view';
import type { OrderPageModel } from '../pages/order.page';
import type { Deliveries } from '../webhooks/deliveries';
import type { OrderHistory } from './order-history';
import { orderAsOf, timelineOf } from './timeline';
import { timelinePart } from './timeline-part';

/**
 * What the order page can show: the order, none (404), an unknown point or part of the timeline
 * (400), or no store (503).
 */
export type OrderPageResult =
  | { readonly kind: 'order'; readonly model: OrderPageModel }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-point' }
  | { readonly kind: 'unavailable' };

/**
 * An order's page from its stream: a part of the timeline (PART_SIZE events: the part asked for,
 * else the chosen point's, else the latest), the order folded up to the point chosen, the
 * transactions recorded by the part's events (their responses are shown), and the mask of a GET with the merchant's password (the stricter of the merchant's
 * setting and 6.4; a certificate's looser mask is the API's alone). A merchant no longer in the
 * file gets the default 6.4.
 */
export class OrderPages {
  constructor(
    private readonly history: OrderHistory,
    private readonly merchants: Pick<MerchantRegistry, 'find'>,
    private readonly deliveries?: Pick<Deliveries, 'ofOrder'>,
  ) {}

  async load(
    merchantId: string,
    orderId: string,
    asOf?: string,
    partAsked?: string,
  ): Promise<OrderPageResult> {
    const events = await this.history.events(merchantId, orderId);
    if (!events) return { kind: 'unavailable' };
    if (events.length === 0) return { kind: 'not-found' };
    const chosen =
      asOf === undefined ? undefined : events.findIndex((e) => String(e.revision) === asOf);
    const part = timelinePart(events.length, partAsked, chosen);
    if (chosen === -1 || !part) return { kind: 'bad-point' };
    const order = orderAsOf(events, chosen === undefined ? undefined : events[chosen].revision);
    if (!order) return { kind: 'not-found' };
    const shown = events.slice(part.first, part.last + 1);
    const merchant = this.merchants.find(merchantId) ?? { cardMask: '6.4' as const, test: false };
    return {
      kind: 'order',
      model: {
        order,
        timeline: timelineOf(shown),
        part,
        recorded: new Set(shown.flatMap((e) => recordedBy(e.data))),
        ...(chosen === undefined ? {} : { chosen: timelineOf([events[chosen]])[0] }),
        view: { cardMask: cardMaskFor(merchant, false) },
        testMerchant: merchant.test,
        deliveries: this.deliveries?.ofOrder(merchantId, orderId),
      },
    };
  }

  close(): Promise<void> {
    return this.history.close();
  }
}

/** The transaction an event records (a transaction event's data is the record: its `id`). */
function recordedBy(data: unknown): string[] {
  const id = (data as { readonly id?: unknown }).id;
  return typeof id === 'string' ? [id] : [];
}
