import { findTransaction, orderStreamId, type Order, type TransactionState } from '@gateway/domain';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { OrderRepository } from '../order/order.repository';
import type { PageTarget } from './page-token';

export type PayerTransaction = { readonly order: Order; readonly tx: TransactionState } | undefined;

/** The order and transaction a payer page is for, to show it. */
export class PayerTransactionQuery extends Query<PayerTransaction> {
  constructor(readonly target: PageTarget) {
    super();
  }
}

@QueryHandler(PayerTransactionQuery)
export class PayerTransactionHandler implements IQueryHandler<PayerTransactionQuery> {
  constructor(private readonly orders: OrderRepository) {}

  async execute({ target }: PayerTransactionQuery): Promise<PayerTransaction> {
    const { state } = await this.orders.load(orderStreamId(target.merchantId, target.orderId));
    const tx = findTransaction(state, target.transactionId);
    return state.kind === 'Order' && tx ? { order: state, tx } : undefined;
  }
}
