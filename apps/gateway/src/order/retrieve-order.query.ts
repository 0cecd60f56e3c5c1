import { ApiError } from '@gateway/contract';
import { findTransaction, orderStreamId, type Order } from '@gateway/domain';
import { renderOrder, renderTransaction, type ResponseView } from '@gateway/order-view';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { OrderRepository } from './order.repository';

type Json = Record<string, unknown>;

/** GET …/order/{orderid}, or …/transaction/{transactionid} when transactionId is given. */
export class RetrieveOrderQuery extends Query<Json> {
  constructor(
    readonly merchantId: string,
    readonly orderId: string,
    readonly view: ResponseView,
    readonly transactionId?: string,
  ) {
    super();
  }
}

@QueryHandler(RetrieveOrderQuery)
export class RetrieveOrderHandler implements IQueryHandler<RetrieveOrderQuery> {
  constructor(private readonly orders: OrderRepository) {}

  async execute(query: RetrieveOrderQuery): Promise<Json> {
    const { state } = await this.orders.load(orderStreamId(query.merchantId, query.orderId));
    if (state.kind !== 'Order') throw ApiError.notFound(`Order '${query.orderId}' was not found`);
    if (query.transactionId === undefined) return renderOrder(state, query.view);
    const tx = findTransaction(state, query.transactionId);
    if (!tx)
      throw ApiError.notFound(
        `Transaction '${query.transactionId}' was not found on order '${query.orderId}'`,
      );
    return renderTransaction(state as Order, tx, undefined, query.view);
  }
}
