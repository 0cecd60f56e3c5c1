import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { foldOrder, orderStreamId, type Order, type OrderEvent } from '@gateway/domain';
import {
  merchantClient,
  startGateway,
  type ApiResponse,
  type RunningGateway,
} from '../support/gateway-process';

/**
 * fast-check against the live, built gateway (issue 4, item 6; run `npm run build` first).
 * Each run sends a random sequence of operations on three fresh orders, some of them fired
 * together with Promise.all, some repeated verbatim (at once, or right after). Then, for every order:
 *  - the GET's totals equal the sums over its approved, unvoided transactions; nothing is captured
 *    beyond the authorization or refunded beyond the capture (a standalone refund order aside);
 *    the status follows the lifecycle table;
 *  - the stream read from <dataDir>/events.db, folded with the domain's foldOrder, gives the same
 *    totals, status and transactions; every 201 is in it, every LOCK_FAILURE and 400 is not;
 *  - each 201 equals the GET's entry for its transaction (the order as it stood right after it);
 *  - a verbatim repeat of a processed request returned byte-identical text, and does so again at
 *    the end; it is never refused as "the same id with a different body";
 *  - no event's data or metadata, no response and no log line holds a test card number in full,
 *    and no event has a securityCode key.
 */

const CARDS = [
  { number: '5123450000000008', securityCode: '100' },
  { number: '2223000000000007', securityCode: '101' },
  { number: '4508750015741019', securityCode: '102' },
  { number: '371881634498004', securityCode: '1000' }, // 15 digits, four-digit security code
];
const EXPIRY = {
  approve: { month: '1', year: '39' },
  decline: { month: '5', year: '39' },
  unknown: { month: '5', year: '37' },
  timeout: { month: '8', year: '28' }, // TIMED_OUT, with a reversal event
} as const;
const ORDERS_PER_RUN = 3;
const NUM_RUNS = 50;
/** Random operations per run, after one opening operation per order. */
const MAX_OPS = 17;

type Kind = 'AUTHORIZE' | 'PAY' | 'VERIFY' | 'CAPTURE' | 'REFUND' | 'STANDALONE_REFUND' | 'VOID';
type Target = { kind: 'none' } | { kind: 'sent'; index: number } | { kind: 'bogus' };
interface Op {
  order: number;
  kind: Kind;
  fundingAmount: string;
  amount: string;
  card: number;
  outcome: 'approve' | 'decline' | 'unknown' | 'timeout' | 'partial';
  target: Target;
  /** Reuse one of the order's earlier transaction ids (usually with a different body). */
  reuseId?: number;
  correlation: boolean;
  retry: 'none' | 'concurrent' | 'after';
  /** Fire together with the previous operation. */
  withPrevious: boolean;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  order: fc.nat({ max: ORDERS_PER_RUN - 1 }),
  kind: fc.oneof(
    { weight: 1, arbitrary: fc.constant<Kind>('AUTHORIZE') },
    { weight: 1, arbitrary: fc.constant<Kind>('PAY') },
    { weight: 1, arbitrary: fc.constant<Kind>('VERIFY') },
    { weight: 6, arbitrary: fc.constant<Kind>('CAPTURE') },
    { weight: 6, arbitrary: fc.constant<Kind>('REFUND') },
    { weight: 1, arbitrary: fc.constant<Kind>('STANDALONE_REFUND') },
    { weight: 3, arbitrary: fc.constant<Kind>('VOID') },
  ),
  fundingAmount: fc.constantFrom('100.00', '60.00', '250.00', '12.345'),
  amount: fc.constantFrom(
    '10.00',
    '10.00',
    '25.00',
    '50.00',
    '100.00',
    '5.50',
    '33.333',
    '0.01',
    '150.00',
  ),
  card: fc.nat({ max: CARDS.length - 1 }),
  outcome: fc.oneof(
    { weight: 6, arbitrary: fc.constant('approve' as const) },
    { weight: 1, arbitrary: fc.constant('decline' as const) },
    { weight: 1, arbitrary: fc.constant('unknown' as const) },
    { weight: 1, arbitrary: fc.constant('timeout' as const) },
    { weight: 1, arbitrary: fc.constant('partial' as const) },
  ),
  target: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Target>({ kind: 'none' }) },
    { weight: 3, arbitrary: fc.nat({ max: 20 }).map<Target>((index) => ({ kind: 'sent', index })) },
    { weight: 1, arbitrary: fc.constant<Target>({ kind: 'bogus' }) },
  ),
  reuseId: fc.oneof(
    { weight: 9, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.nat({ max: 20 }) },
  ),
  correlation: fc.boolean(),
  retry: fc.oneof(
    { weight: 4, arbitrary: fc.constant('none' as const) },
    { weight: 1, arbitrary: fc.constant('concurrent' as const) },
    { weight: 1, arbitrary: fc.constant('after' as const) },
  ),
  withPrevious: fc.boolean(),
});

/** Each order's first operation: mostly one that opens it, so later captures and refunds have funds to act on. */
const openerArb: fc.Arbitrary<Op> = fc
  .tuple(
    opArb,
    fc.oneof(
      { weight: 5, arbitrary: fc.constant<Kind>('AUTHORIZE') },
      { weight: 4, arbitrary: fc.constant<Kind>('PAY') },
      { weight: 1, arbitrary: fc.constant<Kind>('VERIFY') },
      { weight: 1, arbitrary: fc.constant<Kind>('STANDALONE_REFUND') },
      { weight: 1, arbitrary: fc.constant<Kind>('CAPTURE') },
    ),
  )
  .map(([op, kind]) => ({ ...op, kind }));
const opsArb: fc.Arbitrary<Op[]> = fc
  .tuple(
    fc.array(openerArb, { minLength: ORDERS_PER_RUN, maxLength: ORDERS_PER_RUN }),
    fc.array(opArb, { maxLength: MAX_OPS }),
  )
  .map(([openers, rest]) => [...openers.map((op, order) => ({ ...op, order })), ...rest]);

function sourceOfFunds(op: Op) {
  const card = CARDS[op.card];
  const expiry = op.outcome === 'partial' ? EXPIRY.approve : EXPIRY[op.outcome];
  return {
    type: 'CARD',
    provided: { card: { number: card.number, expiry, securityCode: card.securityCode } },
  };
}

/** The request body for an operation; `target` is already resolved to a transaction id. */
function bodyOf(op: Op, target: string | undefined, k: number): Record<string, unknown> {
  const correlation = op.correlation ? { correlationId: `corr-${k}` } : {};
  switch (op.kind) {
    case 'AUTHORIZE':
    case 'PAY': {
      const partial = op.outcome === 'partial';
      return {
        apiOperation: op.kind,
        order: {
          amount: partial ? '20.777' : op.fundingAmount,
          currency: 'USD',
          ...(partial ? { acceptPartialAmount: true } : {}),
        },
        sourceOfFunds: sourceOfFunds(op),
        ...correlation,
      };
    }
    case 'VERIFY':
      return {
        apiOperation: 'VERIFY',
        order: { currency: 'USD' },
        sourceOfFunds: sourceOfFunds(op),
        ...correlation,
      };
    case 'CAPTURE':
      return {
        apiOperation: 'CAPTURE',
        transaction: { amount: op.amount, currency: 'USD' },
        ...correlation,
      };
    case 'REFUND':
      return {
        apiOperation: 'REFUND',
        transaction: {
          amount: op.amount,
          currency: 'USD',
          ...(target ? { targetTransactionId: target } : {}),
        },
        ...correlation,
      };
    case 'STANDALONE_REFUND':
      return {
        apiOperation: 'REFUND',
        transaction: { amount: op.amount, currency: 'USD' },
        sourceOfFunds: sourceOfFunds(op),
        ...correlation,
      };
    case 'VOID':
      return {
        apiOperation: 'VOID',
        transaction: { targetTransactionId: target ?? 'nothing' },
        ...correlation,
      };
  }
}

interface Exchange {
  order: string;
  txId: string;
  kind: Kind;
  bodyText: string;
  response: ApiResponse;
  /** A verbatim repeat of an earlier request in this run. */
  repeat: boolean;
}

const isProcessed = (r: ApiResponse) =>
  r.status === 201 && r.body?.response?.gatewayCode !== 'LOCK_FAILURE';
const isLockFailure = (r: ApiResponse) =>
  r.status === 201 && r.body?.response?.gatewayCode === 'LOCK_FAILURE';
const approvedResult = (t: { result: string }) => t.result === 'SUCCESS';
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Card numbers and security codes in parsed JSON: (path, value) of every `card.number`, and every securityCode key. */
function scan(
  value: unknown,
  parentKey = '',
  found = { numbers: [] as unknown[], securityCodes: 0 },
) {
  if (Array.isArray(value)) value.forEach((v) => scan(v, parentKey, found));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'securityCode') found.securityCodes++;
      if (parentKey === 'card' && k === 'number') found.numbers.push(v);
      scan(v, k, found);
    }
  }
  return found;
}

let gateway: RunningGateway;
let api: ReturnType<typeof merchantClient>;
beforeAll(async () => {
  gateway = await startGateway();
  api = merchantClient(gateway);
});
afterAll(() => gateway?.stop());

const RUN = Date.now().toString(36);
let runNo = 0;

it('random operation sequences, partly concurrent and repeated, keep every order consistent with its stream', async () => {
  const stats = new Map<string, number>();
  const count = (key: string) => stats.set(key, (stats.get(key) ?? 0) + 1);

  await fc.assert(
    fc.asyncProperty(opsArb, async (ops) => {
      const run = ++runNo;
      const orders = Array.from({ length: ORDERS_PER_RUN }, (_, i) => `p-${RUN}-${run}-${i}`);
      const sentIds = orders.map(() => [] as string[]);
      const exchanges: Exchange[] = [];

      // Batches: an operation joins the previous one's batch when it says so.
      const batches: Op[][] = [];
      for (const op of ops) {
        if (op.withPrevious && batches.length) batches[batches.length - 1].push(op);
        else batches.push([op]);
      }
      let k = 0;
      for (const batch of batches) {
        if (batch.length > 1) count('concurrent batch');
        const requests: Omit<Exchange, 'response'>[] = [];
        const after: Omit<Exchange, 'response'>[] = [];
        for (const op of batch) {
          k++;
          const sent = sentIds[op.order];
          const target =
            op.target.kind === 'none'
              ? undefined
              : op.target.kind === 'bogus' || sent.length === 0
                ? 'no-such-tx'
                : sent[op.target.index % sent.length];
          const txId =
            op.reuseId !== undefined && sent.length ? sent[op.reuseId % sent.length] : `t${k}`;
          if (!sent.includes(txId)) sent.push(txId);
          const request = {
            order: orders[op.order],
            txId,
            kind: op.kind,
            bodyText: JSON.stringify(bodyOf(op, target, k)),
            repeat: false,
          };
          requests.push(request);
          if (op.retry === 'concurrent') requests.push({ ...request, repeat: true });
          if (op.retry === 'after') after.push({ ...request, repeat: true });
        }
        const send = (r: Omit<Exchange, 'response'>) =>
          api
            .put(`/order/${r.order}/transaction/${r.txId}`, r.bodyText)
            .then((response) => exchanges.push({ ...r, response }));
        await Promise.all(requests.map(send));
        for (const r of after) await send(r);
      }

      // Every answer is a processed 201, a LOCK_FAILURE or a 400 INVALID_REQUEST naming a field.
      for (const e of exchanges) {
        const { status, body } = e.response;
        const wellFormed =
          status === 201
            ? ['SUCCESS', 'FAILURE', 'PENDING', 'UNKNOWN'].includes(body?.result) &&
              body.order?.id === e.order &&
              body.transaction?.id === e.txId
            : status === 400 &&
              body?.result === 'ERROR' &&
              body.error?.cause === 'INVALID_REQUEST' &&
              typeof body.error.field === 'string';
        if (!wellFormed)
          throw new Error(`${e.kind} ${e.order}/${e.txId}: ${status} ${e.response.text}`);
        for (const card of CARDS) expect(e.response.text).not.toContain(card.number);
        count(
          isProcessed(e.response)
            ? `${e.kind} ${body.result}`
            : status === 400
              ? `400 ${body.error.field}`
              : 'LOCK_FAILURE',
        );
      }

      // Verbatim repeats: every processed answer to the same request is the same text, and a repeat
      // of a recorded request is never refused as "same id, different body".
      const groups = new Map<string, Exchange[]>();
      for (const e of exchanges) {
        const key = `${e.order}\n${e.txId}\n${e.bodyText}`;
        groups.set(key, [...(groups.get(key) ?? []), e]);
      }
      for (const group of groups.values()) {
        const processed = group.filter((e) => isProcessed(e.response));
        expect(new Set(processed.map((e) => e.response.text)).size).toBeLessThanOrEqual(1);
        if (processed.length) {
          expect(
            group
              .filter(
                (e) =>
                  e.response.status === 400 && e.response.body.error.field === 'transaction.id',
              )
              .map((e) => e.response.text),
          ).toEqual([]);
        }
        if (group.length > 1 && processed.length) count('verbatim repeat answered');
      }

      // The stream on disk, read-only.
      const db = new Database(join(gateway.dataDir, 'events.db'), {
        readonly: true,
        fileMustExist: true,
      });
      let streams: { rows: { type: string; data: string; metadata: string }[]; order?: Order }[];
      try {
        const read = db.prepare(
          'SELECT revision, type, data, metadata FROM events WHERE stream_id = ? ORDER BY revision',
        );
        streams = orders.map((orderId) => {
          const rows = read.all(orderStreamId('TESTMERCHANT', orderId)) as {
            revision: number;
            type: string;
            data: string;
            metadata: string;
          }[];
          rows.forEach((row, i) => expect(Number(row.revision)).toBe(i));
          const state = foldOrder(
            rows.map((row) => ({ type: row.type, data: JSON.parse(row.data) }) as OrderEvent),
          );
          return { rows, order: state.kind === 'Order' ? (state as Order) : undefined };
        });
      } finally {
        db.close();
      }

      for (const [i, orderId] of orders.entries()) {
        const { rows, order } = streams[i];
        // No card number in full, no security code, in any event's data or metadata.
        for (const row of rows) {
          for (const text of [row.data, row.metadata]) {
            for (const card of CARDS) expect(text).not.toContain(card.number);
            const found = scan(JSON.parse(text));
            expect(found.securityCodes).toBe(0);
            for (const number of found.numbers) expect(number).toMatch(/^\d{6}x+\d{4}$/);
          }
        }
        const mine = exchanges.filter((e) => e.order === orderId);
        const get = await api.get(`/order/${orderId}`);
        if (!order) {
          expect(get.status).toBe(404);
          expect(mine.filter((e) => isProcessed(e.response))).toEqual([]);
          continue;
        }
        expect(get.status).toBe(200);
        count('order checked');
        type Tx = {
          result: string;
          transaction: { id: string; type: string; amount: number; targetTransactionId?: string };
        };
        const txs = get.body.transaction as Tx[];

        // Totals from the transaction list, computed here: approved, unvoided transactions only.
        const approved = txs.filter(approvedResult);
        const voided = new Set(
          approved
            .filter((t) => t.transaction.type.startsWith('VOID_'))
            .map((t) => t.transaction.targetTransactionId),
        );
        const total = (...types: string[]) =>
          round3(
            approved
              .filter((t) => types.includes(t.transaction.type) && !voided.has(t.transaction.id))
              .reduce((s, t) => s + t.transaction.amount, 0),
          );
        const expected = {
          authorized: total('AUTHORIZATION', 'PAYMENT'),
          captured: total('CAPTURE', 'PAYMENT'),
          refunded: total('REFUND'),
        };
        const totals = {
          authorized: get.body.totalAuthorizedAmount,
          captured: get.body.totalCapturedAmount,
          refunded: get.body.totalRefundedAmount,
        };
        expect(totals).toEqual(expected);
        expect(totals.captured).toBeLessThanOrEqual(totals.authorized);
        const standalone = txs[0].transaction.type === 'REFUND';
        if (standalone && approvedResult(txs[0]) && !voided.has(txs[0].transaction.id)) {
          count('standalone refund order');
          expect(totals).toEqual({
            authorized: 0,
            captured: 0,
            refunded: txs[0].transaction.amount,
          });
        } else {
          expect(totals.refunded).toBeLessThanOrEqual(totals.captured);
        }
        // The lifecycle table.
        const cancelled =
          approved.some(
            (t) =>
              t.transaction.type === 'VOID_AUTHORIZATION' || t.transaction.type === 'VOID_PAYMENT',
          ) && totals.authorized === 0;
        const status = cancelled
          ? 'CANCELLED'
          : totals.refunded > 0
            ? totals.refunded >= totals.captured
              ? 'REFUNDED'
              : 'PARTIALLY_REFUNDED'
            : totals.captured > 0
              ? totals.captured >= totals.authorized
                ? 'CAPTURED'
                : 'PARTIALLY_CAPTURED'
              : totals.authorized > 0
                ? 'AUTHORIZED'
                : approved.some((t) => t.transaction.type === 'VERIFICATION')
                  ? 'VERIFIED'
                  : 'FAILED';
        expect(get.body.status).toBe(status);
        count(`status ${status}`);

        // The stream, folded by the domain, says the same.
        expect({
          status: get.body.status,
          ...totals,
          ids: txs.map((t) => t.transaction.id),
        }).toEqual({
          status: order.status,
          authorized: order.totals.authorized / 1000,
          captured: order.totals.captured / 1000,
          refunded: order.totals.refunded / 1000,
          ids: order.transactions.map((t) => t.id),
        });
        expect(new Set(order.transactions.map((t) => t.id)).size).toBe(order.transactions.length);

        // Every processed answer is in the stream and is what GET shows for that transaction;
        // an id that only ever got a LOCK_FAILURE or a 400 left nothing behind.
        for (const e of mine) {
          const entry = txs.find((t) => t.transaction.id === e.txId);
          if (isProcessed(e.response)) {
            const { correlationId, ...withoutCorrelation } = e.response.body;
            expect(correlationId).toBe(JSON.parse(e.bodyText).correlationId);
            expect(withoutCorrelation).toEqual(entry);
          } else if (!mine.some((other) => other.txId === e.txId && isProcessed(other.response))) {
            expect(entry).toBeUndefined();
            if (isLockFailure(e.response)) count('LOCK_FAILURE left nothing');
          }
        }
      }

      // At the end, each processed request sent again verbatim gets the original bytes back.
      const originals = exchanges.filter((e) => isProcessed(e.response) && !e.repeat);
      const again = await Promise.all(
        originals.map((e) => api.put(`/order/${e.order}/transaction/${e.txId}`, e.bodyText)),
      );
      again.forEach((response, i) =>
        expect({ status: response.status, text: response.text }).toEqual({
          status: 201,
          text: originals[i].response.text,
        }),
      );
      if (originals.length) count('replayed at the end');
    }),
    { numRuns: NUM_RUNS },
  );

  expect(gateway.child.exitCode).toBeNull();
  for (const card of CARDS) expect(gateway.output()).not.toContain(card.number);
  // The runs reached the interesting places.
  const wanted = [
    'AUTHORIZE SUCCESS',
    'PAY SUCCESS',
    'CAPTURE SUCCESS',
    'REFUND SUCCESS',
    'VOID SUCCESS',
    'concurrent batch',
    'verbatim repeat answered',
    'order checked',
    'replayed at the end',
    '400 transaction.amount',
  ];
  expect(wanted.filter((key) => !stats.has(key))).toEqual([]);
});
