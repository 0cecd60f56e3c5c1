import Database from 'better-sqlite3';
import { join } from 'node:path';
import { foldOrder, orderStreamId, type Order, type OrderEvent } from '@gateway/domain';
import {
  authorizeBody,
  merchantClient,
  startGateway,
  type ApiResponse,
  type RunningGateway,
} from '../support/gateway-process';

/**
 * Races and retries over HTTP against the real, built gateway (issue 4, item 5).
 * Run `npm run build` first. Nothing here relies on timing: every assertion holds whichever
 * request wins, and the outcomes are checked against the event stream read from the SQLite file.
 *
 * The last describe block holds tests that FAIL today (marked BUG-C and BUG-D): a second gateway
 * process on the same data directory serves orders from its in-memory cache without noticing that
 * the other process has written to them since.
 */

type Api = ReturnType<typeof merchantClient>;
const MERCHANT = 'TESTMERCHANT';
let seq = 0;
const RUN = Date.now().toString(36);
/** Order ids are at most 40 characters. */
const newOrder = (what: string) => `${what}-${RUN}-${++seq}`.slice(-40);

const captureBody = (amount: string) => ({
  apiOperation: 'CAPTURE',
  transaction: { amount, currency: 'USD' },
});
const refundBody = (amount: string) => ({
  apiOperation: 'REFUND',
  transaction: { amount, currency: 'USD' },
});
const voidBody = (target: string) => ({
  apiOperation: 'VOID',
  transaction: { targetTransactionId: target },
});
const payBody = (amount: string) => ({ ...authorizeBody(amount), apiOperation: 'PAY' });

type Verdict = 'success' | 'lock' | 'rejected';

/** Every answer in a race is one of three things; anything else (a 500, a decline, …) fails the test. */
function verdictOf(response: ApiResponse, rejectedField: string): Verdict {
  if (
    response.status === 201 &&
    response.body?.result === 'SUCCESS' &&
    response.body.response?.gatewayCode === 'APPROVED'
  )
    return 'success';
  if (
    response.status === 201 &&
    response.body?.result === 'FAILURE' &&
    response.body.response?.gatewayCode === 'LOCK_FAILURE'
  )
    return 'lock';
  if (
    response.status === 400 &&
    response.body?.error?.cause === 'INVALID_REQUEST' &&
    response.body.error.field === rejectedField
  )
    return 'rejected';
  throw new Error(`unexpected answer in a race: ${response.status} ${response.text}`);
}

/** The order's stream, read straight from the SQLite file (read-only), and its fold. */
function readStream(dataDir: string, orderId: string) {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        'SELECT revision, type, data, metadata FROM events WHERE stream_id = ? ORDER BY revision',
      )
      .all(orderStreamId(MERCHANT, orderId)) as {
      revision: number;
      type: string;
      data: string;
      metadata: string;
    }[];
    rows.forEach((row, i) => expect(Number(row.revision)).toBe(i)); // no gaps, no duplicates
    const events = rows.map(
      (row) => ({ type: row.type, data: JSON.parse(row.data) }) as OrderEvent,
    );
    const state = foldOrder(events);
    if (state.kind !== 'Order') throw new Error(`no stream for ${orderId}`);
    return { rows, events, order: state as Order };
  } finally {
    db.close();
  }
}

const money = (thousandths: number) => thousandths / 1000;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * "The totals and the event stream agree": the GET's totals equal the sums over its approved,
 * unvoided transactions, and equal the fold of the stream read from disk, transaction for transaction.
 */
function expectTotalsAgree(get: ApiResponse, stream: ReturnType<typeof readStream>) {
  expect(get.status).toBe(200);
  const txs = get.body.transaction as {
    result: string;
    transaction: { id: string; type: string; amount: number; targetTransactionId?: string };
  }[];
  const approved = txs.filter((t) => t.result === 'SUCCESS');
  const voided = new Set(
    approved
      .filter((t) => t.transaction.type.startsWith('VOID_'))
      .map((t) => t.transaction.targetTransactionId),
  );
  const live = (...types: string[]) =>
    approved.filter((t) => types.includes(t.transaction.type) && !voided.has(t.transaction.id));
  const total = (...types: string[]) =>
    Math.round(sum(live(...types).map((t) => t.transaction.amount)) * 1000) / 1000;
  expect({
    authorized: get.body.totalAuthorizedAmount,
    captured: get.body.totalCapturedAmount,
    refunded: get.body.totalRefundedAmount,
  }).toEqual({
    authorized: total('AUTHORIZATION', 'PAYMENT'),
    captured: total('CAPTURE', 'PAYMENT'),
    refunded: total('REFUND'),
  });
  const { order } = stream;
  expect({
    status: get.body.status,
    authorized: get.body.totalAuthorizedAmount,
    captured: get.body.totalCapturedAmount,
    refunded: get.body.totalRefundedAmount,
    ids: txs.map((t) => t.transaction.id),
  }).toEqual({
    status: order.status,
    authorized: money(order.totals.authorized),
    captured: money(order.totals.captured),
    refunded: money(order.totals.refunded),
    ids: order.transactions.map((t) => t.id),
  });
}

/** Refunds naming each capture or payment never add up to more than it. */
function expectNoRefundExceedsItsCapture(order: Order) {
  for (const funded of order.transactions.filter(
    (t) => t.type === 'CAPTURE' || t.type === 'PAYMENT',
  )) {
    const refunded = sum(
      order.transactions
        .filter((t) => t.type === 'REFUND' && t.targetTransactionId === funded.id && !t.voided)
        .map((t) => t.amount),
    );
    expect(refunded).toBeLessThanOrEqual(funded.amount);
  }
}

/**
 * The successful answers of a race, each showing the order right after it: their running totals
 * must be step, 2·step, … with no value twice (two winners deciding on the same state would repeat one).
 */
function expectRunningTotalsAreDistinctSteps(
  successes: ApiResponse[],
  field: 'totalCapturedAmount' | 'totalRefundedAmount',
  step: number,
) {
  const totals = successes.map((r) => r.body.order[field] as number).sort((a, b) => a - b);
  expect(totals).toEqual(successes.map((_, i) => Math.round((i + 1) * step * 1000) / 1000));
}

/** Sends `count` requests with the same body and distinct transaction ids at once, over HTTP. */
async function raceTogether(api: Api, order: string, count: number, prefix: string, body: unknown) {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const answers = await Promise.all(
    ids.map((id) => api.put(`/order/${order}/transaction/${id}`, body)),
  );
  const verdicts = answers.map((a) => verdictOf(a, 'transaction.amount'));
  return { answers, verdicts, won: ids.filter((_, i) => verdicts[i] === 'success') };
}

/** The transactions of one type in a retrieved order. */
function recordedOfType(get: ApiResponse, type: string) {
  return (
    get.body.transaction as { transaction: { id: string; type: string; amount: number } }[]
  ).filter((t) => t.transaction.type === type);
}

describe('races on one order, one gateway process', () => {
  let gateway: RunningGateway;
  let api: Api;
  beforeAll(async () => {
    gateway = await startGateway();
    api = merchantClient(gateway);
  });
  afterAll(() => gateway.stop());

  it.each([
    ['AUTHORIZE 100 then CAPTURE 100', false],
    ['PAY 100', true],
  ])(
    '50 simultaneous REFUNDs of 10.00 after %s: exactly 10 succeed, the order is REFUNDED at exactly 100',
    async (_, byPayment) => {
      const order = newOrder('refunds');
      if (byPayment) {
        expect(
          (await api.put(`/order/${order}/transaction/pay`, payBody('100.00'))).body.result,
        ).toBe('SUCCESS');
      } else {
        expect(
          (await api.put(`/order/${order}/transaction/auth`, authorizeBody('100.00'))).body.result,
        ).toBe('SUCCESS');
        expect(
          (await api.put(`/order/${order}/transaction/cap`, captureBody('100.00'))).body.result,
        ).toBe('SUCCESS');
      }
      const { answers, verdicts, won } = await raceTogether(
        api,
        order,
        50,
        'refund',
        refundBody('10.00'),
      );

      expect(won).toHaveLength(10);
      // One process serialises the requests on an order, so nobody should lose the stream to a writer.
      expect(verdicts.filter((v) => v === 'lock')).toHaveLength(0);
      expectRunningTotalsAreDistinctSteps(
        answers.filter((_, i) => verdicts[i] === 'success'),
        'totalRefundedAmount',
        10,
      );

      const get = await api.get(`/order/${order}`);
      expect(get.body).toMatchObject({
        status: 'REFUNDED',
        totalCapturedAmount: 100,
        totalRefundedAmount: 100,
      });
      const refunds = recordedOfType(get, 'REFUND');
      expect(refunds.map((t) => t.transaction.id).sort()).toEqual([...won].sort());
      expect(sum(refunds.map((t) => t.transaction.amount))).toBe(get.body.totalRefundedAmount);

      const stream = readStream(gateway.dataDir, order);
      expectTotalsAgree(get, stream);
      expectNoRefundExceedsItsCapture(stream.order);
      expect(stream.rows).toHaveLength((byPayment ? 2 : 3) + 10); // created + funding (+ capture) + 10 refunds
    },
  );

  it('30 simultaneous CAPTUREs of 10.00 on an authorization of 100.00: exactly 10 succeed, CAPTURED at exactly 100', async () => {
    const order = newOrder('captures');
    expect(
      (await api.put(`/order/${order}/transaction/auth`, authorizeBody('100.00'))).body.result,
    ).toBe('SUCCESS');
    const { answers, verdicts, won } = await raceTogether(
      api,
      order,
      30,
      'capture',
      captureBody('10.00'),
    );

    expect(won).toHaveLength(10);
    expect(verdicts.filter((v) => v === 'lock')).toHaveLength(0);
    expectRunningTotalsAreDistinctSteps(
      answers.filter((_, i) => verdicts[i] === 'success'),
      'totalCapturedAmount',
      10,
    );

    const get = await api.get(`/order/${order}`);
    expect(get.body).toMatchObject({
      status: 'CAPTURED',
      totalAuthorizedAmount: 100,
      totalCapturedAmount: 100,
      totalRefundedAmount: 0,
    });
    const captures = recordedOfType(get, 'CAPTURE');
    expect(captures.map((t) => t.transaction.id).sort()).toEqual([...won].sort());
    expect(sum(captures.map((t) => t.transaction.amount))).toBe(100);
    expectTotalsAgree(get, readStream(gateway.dataDir, order));
  });

  it('a VOID of the authorization racing 10 CAPTUREs: either the void wins and nothing is captured, or the captures win and the void is refused', async () => {
    const outcomes: string[] = [];
    // Several orders at once, the void sent at a different place in each burst.
    await Promise.all(
      [0, 3, 5, 7, 10].map(async (voidAt) => {
        const order = newOrder(`void-${voidAt}`);
        expect(
          (await api.put(`/order/${order}/transaction/auth`, authorizeBody('100.00'))).body.result,
        ).toBe('SUCCESS');
        const requests: { id: string; body: unknown; kind: 'void' | 'capture' }[] = Array.from(
          { length: 10 },
          (_, i) => ({
            id: `capture-${i}`,
            body: captureBody('5.00'),
            kind: 'capture' as const,
          }),
        );
        requests.splice(voidAt, 0, { id: 'void', body: voidBody('auth'), kind: 'void' });
        const answers = await Promise.all(
          requests.map((r) => api.put(`/order/${order}/transaction/${r.id}`, r.body)),
        );
        const voidAnswer = answers[voidAt];
        const captureAnswers = answers.filter((_, i) => i !== voidAt);
        const voidVerdict = verdictOf(voidAnswer, 'transaction.targetTransactionId');
        const captureVerdicts = captureAnswers.map((a) => verdictOf(a, 'transaction.amount'));
        expect(voidVerdict).not.toBe('lock');
        expect(captureVerdicts).not.toContain('lock');

        const get = await api.get(`/order/${order}`);
        const stream = readStream(gateway.dataDir, order);
        expectTotalsAgree(get, stream);
        const types = stream.order.transactions.map((t) => t.type);
        if (voidVerdict === 'success') {
          // The void came first: every capture was refused and none is recorded, before or after it.
          outcomes.push('void won');
          expect(captureVerdicts.every((v) => v === 'rejected')).toBe(true);
          expect(types).toEqual(['AUTHORIZATION', 'VOID_AUTHORIZATION']);
          expect(get.body).toMatchObject({
            status: 'CANCELLED',
            totalAuthorizedAmount: 0,
            totalCapturedAmount: 0,
          });
        } else {
          // A capture came first, so the authorization has dependants: the void is refused, and
          // every capture (50.00 of 100.00) succeeds.
          outcomes.push('captures won');
          expect(voidAnswer.body.error.explanation).toMatch(/depend/);
          expect(captureVerdicts.every((v) => v === 'success')).toBe(true);
          expect(types).toEqual(['AUTHORIZATION', ...Array(10).fill('CAPTURE')]);
          expect(get.body).toMatchObject({
            status: 'PARTIALLY_CAPTURED',
            totalAuthorizedAmount: 100,
            totalCapturedAmount: 50,
          });
        }
      }),
    );
    expect(outcomes).toHaveLength(5);
  });

  it.each([
    [
      'an AUTHORIZE opening a new order',
      (order: string) => ({
        order,
        setup: [] as [string, unknown][],
        body: authorizeBody('42.00'),
        type: 'AUTHORIZATION',
      }),
    ],
    [
      'a CAPTURE',
      (order: string) => ({
        order,
        setup: [['auth', authorizeBody('42.00')]] as [string, unknown][],
        body: { ...captureBody('12.00'), correlationId: 'c-1' },
        type: 'CAPTURE',
      }),
    ],
    [
      'a REFUND',
      (order: string) => ({
        order,
        setup: [['pay', payBody('42.00')]] as [string, unknown][],
        body: refundBody('12.00'),
        type: 'REFUND',
      }),
    ],
  ])(
    'the same request (same id, same body) 20 times at once, as %s: 20 identical 201s and one transaction',
    async (_, scenario) => {
      const { order, setup, body, type } = scenario(newOrder('retry'));
      for (const [id, setupBody] of setup)
        expect((await api.put(`/order/${order}/transaction/${id}`, setupBody)).status).toBe(201);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => api.put(`/order/${order}/transaction/same`, body)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(answers[0].body).toMatchObject({
        result: 'SUCCESS',
        transaction: { id: 'same', type },
      });
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);

      const get = await api.get(`/order/${order}`);
      const stream = readStream(gateway.dataDir, order);
      expectTotalsAgree(get, stream);
      expect(stream.order.transactions.filter((t) => t.id === 'same')).toHaveLength(1);
      expect(stream.order.transactions).toHaveLength(setup.length + 1);
    },
  );
});

describe('races on one order across two gateway processes sharing a data directory', () => {
  let first: RunningGateway;
  let second: RunningGateway;
  beforeAll(async () => {
    first = await startGateway();
    second = await startGateway(first.dataDir); // after the first, so both read the same fingerprint key
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  it('50 REFUNDs of 10.00 split between the processes never refund more than the 100.00 captured', async () => {
    const a = merchantClient(first);
    const b = merchantClient(second);
    const order = newOrder('two-proc');
    expect((await a.put(`/order/${order}/transaction/pay`, payBody('100.00'))).body.result).toBe(
      'SUCCESS',
    );
    // Both processes now hold the order folded in memory; every refund one of them records leaves the
    // other's copy stale, so the other must be stopped by the append's expected revision.
    expect((await b.get(`/order/${order}`)).body.status).toBe('CAPTURED');

    const ids = Array.from({ length: 50 }, (_, i) => `refund-${i}`);
    const answers = await Promise.all(
      ids.map((id, i) =>
        (i % 2 ? b : a).put(`/order/${order}/transaction/${id}`, refundBody('10.00')),
      ),
    );
    const verdicts = answers.map((r) => verdictOf(r, 'transaction.amount'));
    const won = ids.filter((_, i) => verdicts[i] === 'success');
    const lost = ids.filter((_, i) => verdicts[i] !== 'success');

    expect(won.length).toBeGreaterThan(0);
    expect(won.length).toBeLessThanOrEqual(10);
    // A 400 means the process saw no 10.00 left. A stale copy only ever shows more left than there
    // is (refunds only add up), so once anyone was refused, the capture must be used up.
    if (verdicts.includes('rejected')) expect(won).toHaveLength(10);
    expectRunningTotalsAreDistinctSteps(
      answers.filter((_, i) => verdicts[i] === 'success'),
      'totalRefundedAmount',
      10,
    );

    const stream = readStream(first.dataDir, order);
    const { order: folded } = stream;
    expect(folded.totals.refunded).toBe(won.length * 10_000);
    expect(folded.totals.refunded).toBeLessThanOrEqual(folded.totals.captured);
    expectNoRefundExceedsItsCapture(folded);
    const recorded = folded.transactions.filter((t) => t.type === 'REFUND').map((t) => t.id);
    expect([...recorded].sort()).toEqual([...won].sort());
    expect(recorded.filter((id) => lost.includes(id))).toEqual([]);
    expect(folded.status).toBe(won.length === 10 ? 'REFUNDED' : 'PARTIALLY_REFUNDED');

    // A third process, with nothing cached, serves what the stream holds.
    const third = await startGateway(first.dataDir);
    try {
      expectTotalsAgree(await merchantClient(third).get(`/order/${order}`), stream);
    } finally {
      await third.stop();
    }
    expect(first.child.exitCode).toBeNull();
    expect(second.child.exitCode).toBeNull();
  });

  // ------------------------------------------------------------------------------------------
  // KNOWN BUGS (these FAIL today). apps/gateway/src/order/order.repository.ts, load(): a cached
  // order is returned without checking the stream's head, and the cache entry is dropped only when
  // this process's own append conflicts. So after the other process writes to an order, this one
  // keeps serving its old copy:
  //  - BUG-C: GET …/order/{id} answers the stale order (here: nothing refunded, after a refund).
  //  - BUG-D: the identical retry of a request the other process recorded is answered 400
  //    INVALID_REQUEST on transaction.id ("already exists … with a different request") instead of
  //    the original response: process-transaction.handler.ts checks for a replay only on the first,
  //    possibly stale, load (replay(), before the acquirer); after the WrongExpectedRevisionError it
  //    re-loads and calls refuseIfNotAllowed(), which rejects the now-visible id, and it has already
  //    sent the retry to the acquirer a second time.
  // ------------------------------------------------------------------------------------------

  it('BUG-C: a GET on one process shows a refund the other process recorded', async () => {
    const a = merchantClient(first);
    const b = merchantClient(second);
    const order = newOrder('stale-get');
    expect((await a.put(`/order/${order}/transaction/pay`, payBody('100.00'))).body.result).toBe(
      'SUCCESS',
    );
    expect((await b.get(`/order/${order}`)).body.totalRefundedAmount).toBe(0); // b caches the order
    expect((await a.put(`/order/${order}/transaction/r1`, refundBody('10.00'))).body.result).toBe(
      'SUCCESS',
    );

    const viaB = await b.get(`/order/${order}`);
    expect(viaB.body).toMatchObject({ status: 'PARTIALLY_REFUNDED', totalRefundedAmount: 10 }); // today: CAPTURED, 0
    expectTotalsAgree(viaB, readStream(first.dataDir, order));
  });

  it('BUG-D: the identical retry of a REFUND, sent to the other process, gets the original response', async () => {
    const a = merchantClient(first);
    const b = merchantClient(second);
    const order = newOrder('stale-retry');
    expect((await a.put(`/order/${order}/transaction/pay`, payBody('100.00'))).body.result).toBe(
      'SUCCESS',
    );
    expect((await b.get(`/order/${order}`)).status).toBe(200); // b caches the order
    const original = await a.put(`/order/${order}/transaction/r1`, refundBody('10.00'));
    expect(original.body.result).toBe('SUCCESS');

    const retried = await b.put(`/order/${order}/transaction/r1`, refundBody('10.00'));
    expect({ status: retried.status, text: retried.text }).toEqual({
      status: 201,
      text: original.text,
    }); // today: 400 transaction.id
    expect(
      readStream(first.dataDir, order).order.transactions.filter((t) => t.id === 'r1'),
    ).toHaveLength(1);
  });
});
