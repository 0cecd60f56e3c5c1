import { toDecimal } from '@gateway/domain';
import type { OrderSummary, OrderSummaryReadModel } from '@gateway/projections';
import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ORDER_SUMMARIES } from '../tokens';
import { encodeCursor, type OrderListRequest } from './order-list.request';

type Json = Record<string, unknown>;

/** GET …/merchant/{m}/order: the merchant's orders from the order-summary read model. */
export class ListOrdersQuery extends Query<Json> {
  constructor(
    readonly merchantId: string,
    readonly request: OrderListRequest,
  ) {
    super();
  }
}

@QueryHandler(ListOrdersQuery)
export class ListOrdersHandler implements IQueryHandler<ListOrdersQuery> {
  constructor(@Inject(ORDER_SUMMARIES) private readonly summaries: OrderSummaryReadModel) {}

  async execute({ merchantId, request }: ListOrdersQuery): Promise<Json> {
    const page = this.summaries.list({ merchantId, ...request });
    return {
      merchant: merchantId,
      order: page.rows.map(renderSummary),
      ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}),
    };
  }
}

/** Field names as GET order uses them; amounts as JSON numbers like every response amount. */
function renderSummary(row: OrderSummary): Json {
  return {
    id: row.orderId,
    status: row.status,
    currency: row.currency,
    totalAuthorizedAmount: toDecimal(row.totalAuthorized),
    totalCapturedAmount: toDecimal(row.totalCaptured),
    totalRefundedAmount: toDecimal(row.totalRefunded),
    ...(row.totalChargeback ? { totalChargebackAmount: toDecimal(row.totalChargeback) } : {}),
    creationTime: row.creationTime,
    lastUpdatedTime: row.lastUpdatedTime,
    transactionCount: row.transactionCount,
  };
}
