import { SimulatedCurrencyConversion } from '@gateway/acquirer';
import { randomBytes } from 'node:crypto';
import {
  QUOTE_VALIDITY_MS,
  QuoteIds,
  type QuoteTerms,
} from '../../src/currency-conversion/quote-ids';

/** A quote's requestId: issue time, nonce and an HMAC over them and the quote's terms. */
const key = randomBytes(32);
const ids = new QuoteIds(key);
const offer = new SimulatedCurrencyConversion().quote({
  merchantId: 'TESTM',
  cardNumber: '4012000033330026',
  amount: 100_000,
  currency: 'USD',
})!;
const terms: QuoteTerms = { merchantId: 'TESTM', amount: 100_000, currency: 'USD', offer };
const issuedAt = new Date('2026-11-26T12:00:00.000Z');
const later = (ms: number) => new Date(issuedAt.getTime() + ms);

describe('QuoteIds', () => {
  const id = ids.issue(terms, issuedAt);

  it('issues a short id holding no terms in the clear, each quote its own', () => {
    expect(id.length).toBeLessThanOrEqual(100);
    expect(id).toMatch(/^[0-9a-z]+\.[\w-]{8}\.[\w-]{22}$/);
    expect(id).not.toContain('EUR');
    expect(ids.issue(terms, issuedAt)).not.toBe(id);
  });

  it('is VALID for the same terms within 30 minutes, on any node given the same key', () => {
    expect(ids.check(id, terms, issuedAt)).toBe('VALID');
    expect(ids.check(id, terms, later(QUOTE_VALIDITY_MS - 1))).toBe('VALID');
    expect(new QuoteIds(Buffer.from(key)).check(id, terms, issuedAt)).toBe('VALID');
  });

  it('is EXPIRED from 30 minutes on', () => {
    expect(ids.check(id, terms, later(QUOTE_VALIDITY_MS))).toBe('EXPIRED');
  });

  it.each<[string, QuoteTerms]>([
    ['another merchant', { ...terms, merchantId: 'TESTOTHER' }],
    ['another amount', { ...terms, amount: 100_010 }],
    ['another currency', { ...terms, currency: 'GBP' }],
    ['another payer currency', { ...terms, offer: { ...offer, payerCurrency: 'GBP' } }],
    ['another rate', { ...terms, offer: { ...offer, payerExchangeRate: '0.95' } }],
  ])('is UNKNOWN for %s', (_, other) => {
    expect(ids.check(id, other, issuedAt)).toBe('UNKNOWN');
  });

  it('is UNKNOWN when tampered with (a later issue time included), or under another key', () => {
    const [time, nonce, mac] = id.split('.');
    const tampered = [
      `${(issuedAt.getTime() + 60_000).toString(36)}.${nonce}.${mac}`,
      `${time}.AAAAAAAA.${mac}`,
      `${time}.${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, // one character changed
      `${time}.${nonce}`,
      `${id}.x`,
      'q-1',
    ];
    for (const text of tampered) expect(ids.check(text, terms, issuedAt)).toBe('UNKNOWN');
    expect(new QuoteIds(randomBytes(32)).check(id, terms, issuedAt)).toBe('UNKNOWN');
  });
});
