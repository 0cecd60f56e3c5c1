/**
 * The stream holding a settlement batch's content and the end of its run (docs/settlement.md):
 * the gateway's batch closer writes it, the ledger's reconciliation reads when the batch closed.
 */
export function settlementStreamId(merchantId: string, batch: number): string {
  return `settlement:${merchantId}:${batch}`;
}

/** The type of a batch stream's first event: its close. */
export const SETTLEMENT_BATCH_CLOSED = 'SettlementBatchClosed';

/**
 * What the close says of where it stood in the log: the lines are the orders as they stood at
 * that position, so a transaction recorded after it is in no batch, whatever time the gateway's
 * clock gave it.
 */
export interface SettlementClosedAt {
  /** The store's head position when the batch closed, as a decimal string. */
  readonly asOf: string;
}
