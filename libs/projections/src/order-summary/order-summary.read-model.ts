import type { OrderStatus } from '@gateway/domain';
import type { GlobalPosition } from '@gateway/event-store';
import type { OrderSummary } from './order-summary';

/** Keyset pagination: the list runs newest first by (creationTime, orderId). */
export interface OrderSummaryCursor {
  readonly creationTime: string;
  readonly orderId: string;
}

export interface OrderSummaryQuery {
  readonly merchantId: string;
  readonly status?: OrderStatus;
  /** Creation time from (inclusive), ISO 8601 UTC as toISOString writes it. */
  readonly from?: string;
  /** Creation time before (exclusive). */
  readonly to?: string;
  readonly limit: number;
  /** Rows strictly after this one in list order. */
  readonly after?: OrderSummaryCursor;
}

export interface OrderSummaryPage {
  readonly rows: readonly OrderSummary[];
  /** Present when more rows follow. */
  readonly next?: OrderSummaryCursor;
}

/** Money whose outcome is UNKNOWN, in one currency, over every merchant. */
export interface UnknownInCurrency {
  readonly currency: string;
  readonly transactions: number;
  readonly amount: number;
}

/** The port of the order-summary read model. */
export interface OrderSummaryReadModel {
  /** Position of the last event applied, or undefined before the first. */
  checkpoint(): GlobalPosition | undefined;
  /**
   * Writes the rows and moves the checkpoint from `expected` to `next` in one transaction.
   * False, writing nothing, when the checkpoint is no longer `expected` (another process moved it).
   */
  commit(
    rows: readonly OrderSummary[],
    expected: GlobalPosition | undefined,
    next: GlobalPosition,
  ): boolean;
  list(query: OrderSummaryQuery): OrderSummaryPage;
  /** Money whose outcome is UNKNOWN, per currency (currencies with none left out). */
  unknownByCurrency(): UnknownInCurrency[];
  /** Every row, ordered by merchant then order id. */
  rows(): IterableIterator<OrderSummary>;
  close(): void;
}
