import { Command } from '@nestjs/cqrs';
import type { Merchant } from '@gateway/merchants';
import type { ResponseView } from '@gateway/order-view';

export interface ProcessedTransaction {
  /** The response body; a 201 whatever the gateway code. */
  readonly body: Record<string, unknown>;
  /**
   * Whether this request recorded a new transaction: not for a retry answered from the order,
   * nor for a LOCK_FAILURE.
   */
  readonly recorded: boolean;
}

/** One PUT …/order/{orderid}/transaction/{transactionid}, its body already validated by the contract. */
export class ProcessTransactionCommand extends Command<ProcessedTransaction> {
  constructor(
    readonly merchant: Merchant,
    readonly apiOperation: string,
    readonly apiVersion: number,
    readonly orderId: string,
    readonly transactionId: string,
    readonly body: Record<string, unknown>,
    readonly requestHash: string,
    /** What the response may show this caller (masking, UNMASK). */
    readonly view: ResponseView,
    /** The payment session the body cites, bound to the order once the order allows the request. */
    readonly sessionId?: string,
  ) {
    super();
  }
}
