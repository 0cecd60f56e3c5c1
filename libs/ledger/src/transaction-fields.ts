import type { GatewayCode, Thousandths } from '@gateway/domain';

/**
 * What a transaction event's data holds for the reports: a TransactionRecord's id, or a later
 * step's transactionId, with type, amount, currency and gateway code (each may be absent).
 */
export type TransactionFields = Partial<{
  id: string;
  transactionId: string;
  type: string;
  amount: Thousandths;
  currency: string;
  gatewayCode: GatewayCode;
}>;
