import {
  evolve,
  formatAmount,
  initialState,
  orderStreamId,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import { parseTime, UsageError } from '../ledger-args';
import type { LedgerOutput } from '../ledger-context';
import { table } from '../event-rows';

/**
 * `as-of <merchant> <order> <time>`: the order folded from the events the store had committed at
 * that time (their recordedAt, which the embedded store's hash chain protects), with its
 * transactions then.
 */
export async function asOf(
  log: EventReader,
  positional: readonly string[],
  io: LedgerOutput,
): Promise<number> {
  const [merchant, order, time] = positional;
  if (!merchant || !order || !time || positional.length > 3)
    throw new UsageError('as-of needs <merchant> <order> <time>');
  const at = parseTime(time, 'time');
  let state: OrderState = initialState();
  let applied = 0;
  for (const event of await log.readStream(orderStreamId(merchant, order))) {
    if (event.recordedAt > at) break;
    state = evolve(state, event as unknown as OrderEvent);
    applied += 1;
  }
  if (state.kind !== 'Order') {
    io.err.write(`order '${order}' of merchant '${merchant}' did not exist at ${at}\n`);
    return 1;
  }
  const { totals } = state;
  const header = [
    `order ${state.orderId} of ${state.merchantId} as of ${at} (${applied} events)`,
    `status            ${state.status}`,
    `currency          ${state.currency}`,
    `total authorized  ${formatAmount(totals.authorized)}`,
    `total captured    ${formatAmount(totals.captured)}`,
    `total refunded    ${formatAmount(totals.refunded)}`,
    ...(totals.chargedBack ? [`total charged back ${formatAmount(totals.chargedBack)}`] : []),
    `created           ${state.creationTime}`,
    `last updated      ${state.lastUpdatedTime}`,
    '',
  ];
  const transactions = table(
    ['transaction', 'type', 'amount', 'gatewayCode', 'time', 'voided', 'refunded'],
    state.transactions.map((t) => [
      t.id,
      t.type,
      formatAmount(t.amount),
      t.gatewayCode,
      t.timeOfRecord,
      t.voided ? 'yes' : '',
      t.refundedAmount ? formatAmount(t.refundedAmount) : '',
    ]),
  );
  io.out.write(`${[...header, ...transactions].join('\n')}\n`);
  return 0;
}
