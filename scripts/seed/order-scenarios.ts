import {
  decide,
  evolve,
  initialState,
  type GatewayCode,
  type OrderCommand,
  type OrderEvent,
  type OrderState,
  type RecordedSourceOfFunds,
  type Thousandths,
} from '@gateway/domain';
import { hash } from 'node:crypto';

/** One append as the gateway makes it: the events one decided command produced, and who caused it. */
export interface SeedAppend {
  readonly events: readonly OrderEvent[];
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A small deterministic generator (mulberry32), so a seed run is reproducible. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CARD: RecordedSourceOfFunds = {
  type: 'CARD',
  provided: {
    card: {
      number: '512345xxxxxx0008',
      expiry: { month: '1', year: '39' },
      brand: 'MASTERCARD',
      fundingMethod: 'CREDIT',
    },
  },
};
const CURRENCIES = ['USD', 'EUR', 'GBP'];

type Operation =
  | { type: 'AUTHORIZE' | 'PAY' | 'VERIFY'; amount: Thousandths; code?: GatewayCode }
  | { type: 'CAPTURE' | 'REFUND'; amount: Thousandths }
  | { type: 'VOID'; target: string };

/**
 * The order's transactions, drawn with weights close to card traffic: most authorizations are
 * captured, some refunded, a few declined, voided or only verified. `long` gives one order many
 * partial captures and refunds (the longest stream to fold).
 */
function scenario(random: () => number, long: number): Operation[] {
  const amount = 1000 * (5 + Math.floor(random() * 500)) + 10 * Math.floor(random() * 100);
  if (long > 0) {
    const step = 10;
    const ops: Operation[] = [{ type: 'AUTHORIZE', amount: step * long }];
    for (let i = 0; i < long; i++)
      ops.push({ type: 'CAPTURE', amount: step }, { type: 'REFUND', amount: step / 2 });
    return ops;
  }
  const draw = random();
  if (draw < 0.35) {
    const ops: Operation[] = [
      { type: 'AUTHORIZE', amount },
      { type: 'CAPTURE', amount },
    ];
    if (random() < 0.3) ops.push({ type: 'REFUND', amount: Math.floor(amount / 20) * 10 });
    return ops;
  }
  if (draw < 0.55) {
    const ops: Operation[] = [{ type: 'PAY', amount }];
    if (random() < 0.2) ops.push({ type: 'REFUND', amount });
    return ops;
  }
  if (draw < 0.65) return [{ type: 'AUTHORIZE', amount, code: 'DECLINED' }];
  if (draw < 0.75) {
    const half = Math.floor(amount / 20) * 10;
    return [
      { type: 'AUTHORIZE', amount },
      { type: 'CAPTURE', amount: half },
      { type: 'CAPTURE', amount: half },
    ];
  }
  if (draw < 0.85)
    return [
      { type: 'AUTHORIZE', amount },
      { type: 'VOID', target: 't1' },
    ];
  if (draw < 0.95) return [{ type: 'VERIFY', amount: 0 }];
  return [
    { type: 'AUTHORIZE', amount },
    { type: 'CAPTURE', amount },
    { type: 'REFUND', amount },
    { type: 'VOID', target: 't3' },
  ];
}

/**
 * Real order events for one order: each transaction decided by the domain's own decider against
 * the order as it stands, with a processor answer shaped like the simulated acquirer's. `batched`
 * adds its transaction.acquirer (the batch: the transaction's day), which settlement and
 * reconciliation go by; off by default, since a gateway started over a test merchant's batched
 * orders settles their past days.
 */
export function seedOrder(
  random: () => number,
  merchantId: string,
  orderId: string,
  start: Date,
  long = 0,
  batched = false,
): SeedAppend[] {
  const currency = CURRENCIES[Math.floor(random() * CURRENCIES.length)];
  let state: OrderState = initialState();
  const appends: SeedAppend[] = [];
  scenario(random, long).forEach((operation, index) => {
    const now = new Date(start.getTime() + index * 60_000).toISOString();
    const transactionId = `t${index + 1}`;
    const ids = { merchantId, orderId, transactionId, now, currency };
    const command = commandFor(operation, ids, batched);
    const events = decide(command, state);
    state = events.reduce(evolve, state);
    appends.push({
      events,
      metadata: {
        merchantId,
        apiOperation: command.type.toUpperCase(),
        apiVersion: 100,
        causedBy: `merchant.${merchantId}`,
        time: now,
      },
    });
  });
  return appends;
}

function commandFor(
  operation: Operation,
  ids: {
    merchantId: string;
    orderId: string;
    transactionId: string;
    now: string;
    currency: string;
  },
  batched: boolean,
): OrderCommand {
  const code = 'code' in operation && operation.code ? operation.code : 'APPROVED';
  const amount = operation.type === 'VOID' ? 0 : operation.amount;
  const base = {
    merchantId: ids.merchantId,
    orderId: ids.orderId,
    transactionId: ids.transactionId,
    now: ids.now,
    apiVersion: 100,
    requestHash: `seed-${ids.orderId}-${ids.transactionId}`,
    echo: { order: { reference: `ref-${ids.orderId}` }, customer: { email: 'payer@example.com' } },
    outcome: {
      gatewayCode: code,
      approvedAmount: code === 'APPROVED' ? amount : 0,
      details: processorDetails(code, ids, batched),
    },
  };
  switch (operation.type) {
    case 'AUTHORIZE':
    case 'PAY':
    case 'VERIFY':
      return { ...base, type: operation.type, amount, currency: ids.currency, sourceOfFunds: CARD };
    case 'CAPTURE':
    case 'REFUND':
      return { ...base, type: operation.type, amount, currency: ids.currency };
    case 'VOID':
      return { ...base, type: 'VOID', targetTransactionId: operation.target };
  }
}

/**
 * The processor's details in the shape the gateway records the simulated acquirer's answer
 * (response.*, transaction.*); batched, with transaction.acquirer, whose batch is the
 * transaction's UTC day: settlement and reconciliation find each capture, payment and refund in it.
 */
function processorDetails(
  code: GatewayCode,
  ids: { merchantId: string; orderId: string; transactionId: string; now: string },
  batched: boolean,
): Record<string, unknown> {
  return {
    response: {
      acquirerCode: code === 'APPROVED' ? '00' : '05',
      cardSecurityCode: 'MATCH',
      cardholderVerification: { avs: 'ADDRESS_ZIP_MATCH' },
    },
    transaction: {
      ...(batched ? { acquirer: acquirerTransaction(ids) } : {}),
      ...(code === 'APPROVED' ? { authorizationCode: '831000' } : {}),
      receipt: `R${ids.transactionId}${ids.orderId.slice(-6)}`,
    },
  };
}

/** transaction.acquirer as the simulated acquirer answers it: one batch per UTC day. */
function acquirerTransaction(ids: {
  merchantId: string;
  orderId: string;
  transactionId: string;
  now: string;
}): Record<string, unknown> {
  const day = ids.now.slice(0, 10);
  const digits = hash('sha256', `${ids.merchantId}\0${ids.orderId}\0${ids.transactionId}`, 'hex');
  return {
    id: 'SIMULATOR',
    transactionId: BigInt(`0x${digits.slice(0, 13)}`)
      .toString()
      .padStart(15, '0'),
    batch: Number(day.replaceAll('-', '')),
    date: day,
    timeZone: '+0000',
    settlementDate: day,
  };
}
