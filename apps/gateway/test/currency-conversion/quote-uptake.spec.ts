import { SimulatedCurrencyConversion } from '@gateway/acquirer';
import { ApiError } from '@gateway/contract';
import { InMemoryEventStore } from '@gateway/event-store';
import { randomBytes } from 'node:crypto';
import { QUOTE_VALIDITY_MS, QuoteIds } from '../../src/currency-conversion/quote-ids';
import { QuoteUptake, quoteStreamId } from '../../src/currency-conversion/quote-uptake';

/** Taking a Payment Options Inquiry quote up: judged against the payment, bound to one order. */
const EUR_CARD = '4012000033330026';
const now = new Date('2026-11-26T12:00:00.000Z');
let store: InMemoryEventStore;
let quotes: QuoteUptake;
let requestId: string;
beforeEach(() => {
  store = new InMemoryEventStore();
  quotes = new QuoteUptake(new SimulatedCurrencyConversion(), new QuoteIds(randomBytes(32)), store);
  requestId = quotes.offer(
    { merchantId: 'TESTM', cardNumber: EUR_CARD, amount: 100_000, currency: 'USD' },
    now,
  )!.requestId;
});

const payment = (conversion: Record<string, unknown>, amount = '100.00', card = EUR_CARD) => ({
  apiOperation: 'PAY',
  order: { amount, currency: 'USD' },
  sourceOfFunds: { type: 'CARD', provided: { card: { number: card } } },
  currencyConversion: { requestId, ...conversion },
});
const accepted = { uptake: 'ACCEPTED', payerAmount: '94.76', payerCurrency: 'EUR' };

/** The error object a refusal carries. */
function refusal(task: () => unknown): Record<string, unknown> {
  try {
    task();
  } catch (error) {
    if (error instanceof ApiError) return (error.body as { error: Record<string, unknown> }).error;
    throw error;
  }
  throw new Error('not refused');
}

describe('QuoteUptake.judge', () => {
  it('gives an accepted quote its terms, to be recorded and shown', () => {
    const uptake = quotes.judge('TESTM', payment(accepted), now);
    expect(uptake.requestId).toBe(requestId);
    expect(uptake.body.currencyConversion).toEqual({
      requestId,
      uptake: 'ACCEPTED',
      exchangeRateTime: '2026-01-01T00:00:00.000Z',
      marginPercentage: '3',
      payerAmount: '94.76',
      payerCurrency: 'EUR',
      payerExchangeRate: '0.9476',
      provider: 'DCC_PROVIDER_A',
    });
  });

  it('leaves a request citing no quote as it is, and binds nothing for a quote not taken up', () => {
    const plain = { apiOperation: 'PAY', order: { amount: '1.00', currency: 'USD' } };
    expect(quotes.judge('TESTM', plain, now)).toEqual({ body: plain });
    const declined = payment({ uptake: 'DECLINED' });
    expect(quotes.judge('TESTM', declined, now)).toEqual({ body: declined });
  });

  it.each([
    ['another amount', () => payment(accepted, '100.01')],
    ['another card (domestic)', () => payment(accepted, '100.00', '5123450000000008')],
    [
      'a tampered id',
      () => ({
        ...payment(accepted),
        currencyConversion: { ...accepted, requestId: `${requestId}x` },
      }),
    ],
  ])('refuses %s: INVALID on the requestId', (_, body) => {
    expect(refusal(() => quotes.judge('TESTM', body(), now))).toMatchObject({
      field: 'currencyConversion.requestId',
      validationType: 'INVALID',
    });
  });

  it("refuses another merchant's quote", () => {
    expect(refusal(() => quotes.judge('TESTOTHER', payment(accepted), now))).toMatchObject({
      field: 'currencyConversion.requestId',
    });
  });

  it('refuses an expired quote, saying so', () => {
    const late = new Date(now.getTime() + QUOTE_VALIDITY_MS);
    const error = refusal(() => quotes.judge('TESTM', payment(accepted), late));
    expect(error).toMatchObject({ field: 'currencyConversion.requestId' });
    expect(error.explanation).toContain('expired');
  });

  it('refuses an accepted term that is not the quote’s, on that field', () => {
    for (const [field, value] of [
      ['payerAmount', '94.77'],
      ['payerExchangeRate', '0.95'],
      ['provider', 'DCC_PROVIDER_B'],
    ])
      expect(
        refusal(() => quotes.judge('TESTM', payment({ ...accepted, [field]: value }), now)),
      ).toMatchObject({ field: `currencyConversion.${field}`, validationType: 'INVALID' });
    // The same terms written otherwise are the quote's.
    const same = { ...accepted, payerAmount: '94.760', payerExchangeRate: '0.94760' };
    expect(quotes.judge('TESTM', payment(same), now).requestId).toBe(requestId);
  });
});

describe('QuoteUptake.bind', () => {
  it('binds the quote to the first order: the same order again may, another may not', async () => {
    await quotes.bind('TESTM', requestId, 'o-1', now);
    await quotes.bind('TESTM', requestId, 'o-1', now);
    await expect(quotes.bind('TESTM', requestId, 'o-2', now)).rejects.toBeInstanceOf(ApiError);
    const events = await store.readStream(quoteStreamId('TESTM', requestId));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['QuoteTakenUp', { orderId: 'o-1', time: now.toISOString() }],
    ]);
  });

  it('of two orders at once, exactly one wins', async () => {
    const outcomes = await Promise.allSettled([
      quotes.bind('TESTM', requestId, 'o-1', now),
      quotes.bind('TESTM', requestId, 'o-2', now),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  });
});
