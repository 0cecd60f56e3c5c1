import type { MerchantRegistry } from '@gateway/merchants';
import { cardMaskFor } from '@gateway/order-view';
import type { OrderPageModel } from '../pages/order.page';
import type { Deliveries } from '../webhooks/deliveries';
import type { OrderHistory } from './order-history';
import { orderAsOf, timelineOf } from './timeline';

/** What the order page can show: the order, none (404), an unknown point (400), or no store (503). */
export type OrderPageResult =
  | { readonly kind: 'order'; readonly model: OrderPageModel }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-point' }
  | { readonly kind: 'unavailable' };

/**
 * An order's page from its stream: the timeline of every event, the order folded up to the point
 * chosen, and the mask of a GET with the merchant's password (the stricter of the merchant's
 * setting and 6.4; a certificate's looser mask is the API's alone). A merchant no longer in the
 * file gets the default 6.4.
 */
export class OrderPages {
  constructor(
    private readonly history: OrderHistory,
    private readonly merchants: Pick<MerchantRegistry, 'find'>,
    private readonly deliveries?: Pick<Deliveries, 'ofOrder'>,
  ) {}

  async load(merchantId: string, orderId: string, asOf?: string): Promise<OrderPageResult> {
    const events = await this.history.events(merchantId, orderId);
    if (!events) return { kind: 'unavailable' };
    if (events.length === 0) return { kind: 'not-found' };
    const revision = asOf === undefined ? undefined : Number(asOf);
    if (revision !== undefined && !events.some((e) => String(e.revision) === asOf))
      return { kind: 'bad-point' };
    const order = orderAsOf(events, revision);
    if (!order) return { kind: 'not-found' };
    const merchant = this.merchants.find(merchantId) ?? { cardMask: '6.4' as const, test: false };
    return {
      kind: 'order',
      model: {
        order,
        timeline: timelineOf(events),
        ...(revision === undefined ? {} : { asOf: revision }),
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
