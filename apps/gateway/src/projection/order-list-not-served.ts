import { ApiError } from '@gateway/contract';
import type { OrderSummaryPage, OrderSummaryReadModel } from '@gateway/projections';

/**
 * What the order list reads on a node that does not run the projector (GATEWAY_CONSUMERS):
 * nothing would keep a read model current there, so the list is refused with the error object
 * rather than answered from stale rows.
 */
export class OrderListNotServed implements Pick<OrderSummaryReadModel, 'list'> {
  list(): OrderSummaryPage {
    throw ApiError.notFound(
      'The order list is not served by this gateway node: it does not run the order-summary projector',
    );
  }
}
