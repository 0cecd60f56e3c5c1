import { authorizeBody, merchantClient, type RunningGateway } from './gateway-process';

// The day of traffic the settlement and reconciliation suites close (docs/settlement.md).

/** A PAY body on `card`; `extra` adds top-level fields (an order reference, say). */
export const payBody = (
  amount: string,
  extra: Record<string, unknown> = {},
  card = '5123450000000008',
) => ({
  ...authorizeBody(amount, { month: '1', year: '39' }, extra),
  apiOperation: 'PAY',
  sourceOfFunds: {
    type: 'CARD',
    provided: { card: { number: card, expiry: { month: '1', year: '39' }, securityCode: '100' } },
  },
});

/** A PAY of `amount` whose order.reference is `reference`. */
const referencedPay = (amount: string, reference: string) =>
  payBody(amount, { order: { amount, currency: 'USD', reference } });

export interface SettlementDay {
  /** The acquirer's settlement date of the day's transactions (yyyy-mm-dd). */
  readonly date: string;
  /** captured, voided, missing, short (TESTMERCHANT), other (TESTOTHER); debit when asked for. */
  readonly orders: Record<string, string>;
}

/**
 * Sends the day, each request answered 201: on TESTMERCHANT an order authorized 100.00, captured
 * 60.00 and refunded 10.00 (captured); with `debitCard`, a 20.00 payment on it (debit); a 30.00
 * payment voided (voided); the deliberate discrepancies, a RECON-MISSING 40.00 payment (missing)
 * and a RECON-SHORT 50.00 one (short); `payments` more payments of 1.25, 2.25, …; then a 70.00
 * payment on TESTOTHER (other).
 */
export async function sendSettlementDay(
  gateway: RunningGateway,
  newOrder: () => string,
  { debitCard, payments = 0 }: { readonly debitCard?: string; readonly payments?: number } = {},
): Promise<SettlementDay> {
  const api = merchantClient(gateway);
  const put = async (order: string, tx: string, body: unknown) => {
    const res = await api.put(`/order/${order}/transaction/${tx}`, body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const orders: Record<string, string> = {};
  orders.captured = newOrder();
  const auth = await put(orders.captured, 'auth', authorizeBody('100.00'));
  const date = String(auth.transaction.acquirer.settlementDate);
  await put(orders.captured, 'cap', {
    apiOperation: 'CAPTURE',
    transaction: { amount: '60.00', currency: 'USD' },
  });
  await put(orders.captured, 'ref', {
    apiOperation: 'REFUND',
    transaction: { amount: '10.00', currency: 'USD' },
  });
  if (debitCard) {
    orders.debit = newOrder();
    await put(orders.debit, 'pay', payBody('20.00', {}, debitCard));
  }
  orders.voided = newOrder();
  await put(orders.voided, 'pay', payBody('30.00'));
  await put(orders.voided, 'void', {
    apiOperation: 'VOID',
    transaction: { targetTransactionId: 'pay' },
  });
  orders.missing = newOrder();
  await put(orders.missing, 'pay', referencedPay('40.00', 'RECON-MISSING-1'));
  orders.short = newOrder();
  await put(orders.short, 'pay', referencedPay('50.00', 'RECON-SHORT-1'));
  for (let i = 0; i < payments; i++) await put(newOrder(), 'pay', payBody(`${i + 1}.25`));
  orders.other = newOrder();
  const other = await merchantClient(gateway, 'TESTOTHER').put(
    `/order/${orders.other}/transaction/pay`,
    payBody('70.00'),
  );
  expect(other.status).toBe(201);
  return { date, orders };
}

/** POST /operator/acquirer/settlement: an operator closes a batch. */
export function closeBatch(gateway: RunningGateway, body: unknown): Promise<Response> {
  return fetch(`${gateway.baseUrl}/operator/acquirer/settlement`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
