import {
  evolve,
  initialState,
  type GatewayCode,
  type OrderEvent,
  type OrderState,
  type TransactionRecord,
} from '@gateway/domain';
import { postingsOf, type Entry } from '@gateway/accounting';

/** Events as the gateway records them, every value explicit; amounts in thousandths. */
export const created: OrderEvent = {
  type: 'OrderCreated',
  data: { merchantId: 'M1', orderId: 'o-1', currency: 'USD', creationTime: at(0) },
};

export function at(second: number): string {
  return new Date(Date.UTC(2026, 10, 26, 10, 0, second)).toISOString();
}

type Kind = Exclude<OrderEvent['type'], 'OrderCreated'> & `${string}Processed`;

export function transaction(
  kind: Kind,
  type: TransactionRecord['type'],
  id: string,
  amount: number,
  extra: Partial<TransactionRecord> = {},
): OrderEvent {
  const gatewayCode: GatewayCode = extra.gatewayCode ?? 'APPROVED';
  const data: TransactionRecord = {
    id,
    type,
    amount,
    currency: 'USD',
    gatewayCode,
    processor: {},
    echo: {},
    timeOfRecord: at(1),
    apiVersion: 100,
    requestHash: `hash-${id}`,
    ...extra,
  };
  return { type: kind, data } as OrderEvent;
}

export const authorize = (id: string, amount: number, extra?: Partial<TransactionRecord>) =>
  transaction('AuthorizationProcessed', 'AUTHORIZATION', id, amount, extra);
export const pay = (id: string, amount: number, extra?: Partial<TransactionRecord>) =>
  transaction('PaymentProcessed', 'PAYMENT', id, amount, extra);
export const capture = (id: string, amount: number, target = 'a1') =>
  transaction('CaptureProcessed', 'CAPTURE', id, amount, { targetTransactionId: target });
export const refund = (id: string, amount: number, target = 'c1') =>
  transaction('RefundProcessed', 'REFUND', id, amount, { targetTransactionId: target });

/** The order after `events`, and the entries `event` posts on it (at log position 7). */
export function postingsAfter(events: readonly OrderEvent[], event: OrderEvent): Entry[] {
  const before = events.reduce<OrderState>((state, e) => evolve(state, e), initialState());
  const after = evolve(before, event);
  return postingsOf({ ...event, position: 7n }, before, after);
}

/** An entry's lines as `account debit` / `account -credit`, short enough to read in a table. */
export function linesOf(entries: readonly Entry[]): string[][] {
  return entries.map((entry) =>
    entry.lines.map((l) =>
      'debit' in l ? `${l.account} ${l.debit}` : `${l.account} -${l.credit}`,
    ),
  );
}
