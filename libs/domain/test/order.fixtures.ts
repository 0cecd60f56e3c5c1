import type {
  Authorize,
  Capture,
  GatewayCode,
  OrderCommand,
  OrderEvent,
  Pay,
  ProcessorOutcome,
  Refund,
  TransactionRecord,
  UpdateAuthorization,
  Verify,
  Void,
} from '@gateway/domain';

/** Builders for commands and the events they should produce; every value is explicit data. */
export const T0 = '2026-11-22T10:00:00.000Z';
export const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** A card as the gateway records it (sourceOfFunds.provided.card). */
const card = {
  type: 'CARD',
  provided: { card: { number: '512345xxxxxx0008', expiry: { month: '1', year: '39' } } },
};
const ids = { merchantId: 'TESTM', orderId: 'o-1', apiVersion: 100, echo: {} };

export const approved = (amount: number, code: GatewayCode = 'APPROVED'): ProcessorOutcome => ({
  gatewayCode: code,
  approvedAmount: amount,
  details: { acquirerCode: '00' },
});
export const declined = (): ProcessorOutcome => ({
  gatewayCode: 'DECLINED',
  approvedAmount: 0,
  details: { acquirerCode: '05' },
});

type Cmd<C> = Omit<C, 'merchantId' | 'orderId' | 'apiVersion' | 'echo' | 'type' | 'outcome'> & {
  outcome?: ProcessorOutcome;
};

export const authorize = (
  c: Partial<Cmd<Authorize>> & { transactionId: string; amount: number },
): OrderCommand => ({
  ...ids,
  type: 'AUTHORIZE',
  currency: 'USD',
  sourceOfFunds: card,
  now: T0,
  requestHash: `h-${c.transactionId}`,
  outcome: approved(c.amount),
  ...c,
});
export const pay = (
  c: Partial<Cmd<Pay>> & { transactionId: string; amount: number },
): OrderCommand => ({
  ...ids,
  type: 'PAY',
  currency: 'USD',
  sourceOfFunds: card,
  now: T0,
  requestHash: `h-${c.transactionId}`,
  outcome: approved(c.amount),
  ...c,
});
export const verify = (c: Partial<Cmd<Verify>> & { transactionId: string }): OrderCommand => ({
  ...ids,
  type: 'VERIFY',
  amount: 0,
  currency: 'USD',
  sourceOfFunds: card,
  now: T0,
  requestHash: `h-${c.transactionId}`,
  outcome: approved(0),
  ...c,
});
export const capture = (
  c: Partial<Cmd<Capture>> & { transactionId: string; amount: number },
): OrderCommand => ({
  ...ids,
  type: 'CAPTURE',
  currency: 'USD',
  now: T0,
  requestHash: `h-${c.transactionId}`,
  outcome: approved(c.amount),
  ...c,
});
export const updateAuthorization = (
  c: Partial<Cmd<UpdateAuthorization>> & { transactionId: string; amount: number },
): OrderCommand => ({
  ...ids,
  type: 'UPDATE_AUTHORIZATION',
  currency: 'USD',
  now: T0,
  requestHash: `h-${c.transactionId}`,
  outcome: approved(c.amount),
  ...c,
});
export const refund = (
  c: Partial<Cmd<Refund>> & { transactionId: string; amount: number },
): OrderCommand => ({
  ...ids,
  type: 'REFUND',
  currency: 'USD',
  now: T0,
  requestHash: `h-${c.transactionId}`,
  outcome: approved(c.amount),
  ...c,
});
export const voidTx = (
  c: Partial<Cmd<Void>> & { transactionId: string; targetTransactionId: string },
): OrderCommand => ({
  ...ids,
  type: 'VOID',
  now: T0,
  requestHash: `h-${c.transactionId}`,
  outcome: approved(0),
  ...c,
});

export const created = (now = T0): OrderEvent => ({
  type: 'OrderCreated',
  data: { merchantId: 'TESTM', orderId: 'o-1', currency: 'USD', creationTime: now },
});

/** The record a command produces, for `then([...])`. */
export function recorded(
  type: TransactionRecord['type'],
  transactionId: string,
  amount: number,
  extra: Partial<TransactionRecord> = {},
): TransactionRecord {
  return {
    id: transactionId,
    type,
    amount,
    currency: 'USD',
    gatewayCode: 'APPROVED',
    processor: { acquirerCode: '00' },
    echo: {},
    timeOfRecord: T0,
    apiVersion: 100,
    requestHash: `h-${transactionId}`,
    ...extra,
  };
}

export const authorized = (id: string, amount: number): OrderEvent => ({
  type: 'AuthorizationProcessed',
  data: recorded('AUTHORIZATION', id, amount, { sourceOfFunds: card }),
});
export const declinedAuthorization = (id: string, amount: number): OrderEvent => ({
  type: 'AuthorizationProcessed',
  data: recorded('AUTHORIZATION', id, amount, { gatewayCode: 'DECLINED' }),
});
export const paid = (id: string, amount: number): OrderEvent => ({
  type: 'PaymentProcessed',
  data: recorded('PAYMENT', id, amount, { sourceOfFunds: card }),
});
export const captured = (id: string, amount: number): OrderEvent => ({
  type: 'CaptureProcessed',
  data: recorded('CAPTURE', id, amount),
});
export const refunded = (id: string, amount: number, target: string): OrderEvent => ({
  type: 'RefundProcessed',
  data: recorded('REFUND', id, amount, { targetTransactionId: target }),
});
export const voided = (
  id: string,
  type: TransactionRecord['type'],
  amount: number,
  target: string,
): OrderEvent => ({
  type: 'VoidProcessed',
  data: recorded(type, id, amount, { targetTransactionId: target }),
});
export { card };
