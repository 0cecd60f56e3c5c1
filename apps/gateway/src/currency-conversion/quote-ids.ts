import type { ConversionQuote } from '@gateway/acquirer';
import type { Thousandths } from '@gateway/domain';
import { hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { HmacSha256 } from '../crypto/hmac-sha256';

/** Behaviour notes, Payment Options Inquiry: a quote may be taken up for 30 minutes. */
export const QUOTE_VALIDITY_MS = 30 * 60 * 1000;
/** 128 bits of HMAC-SHA256, base64url. */
const MAC_CHARS = 22;

/** What a quote was given for, and what it offered: all of it is bound by the requestId. */
export interface QuoteTerms {
  readonly merchantId: string;
  readonly amount: Thousandths;
  readonly currency: string;
  readonly offer: ConversionQuote;
}

export type QuoteCheck = 'VALID' | 'UNKNOWN' | 'EXPIRED';

/**
 * A currency-conversion quote's requestId (docs/currency-conversion.md): `{issue time}.{nonce}.{mac}`,
 * the issue time in milliseconds (base 36), a random nonce (each inquiry its own quote), and an
 * HMAC over both and the quote's terms. Nothing is stored when a quote is given: a payment
 * citing it recomputes the terms for its own merchant, card, amount and currency, and the MAC
 * holds only if they are the quoted ones, on any node given the same key. The key is derived
 * from the card-fingerprint key (which every gateway sharing an event store already shares), so
 * no key file is added.
 */
export class QuoteIds {
  private readonly mac: HmacSha256;

  constructor(cardFingerprintKey: Buffer) {
    const key = hkdfSync('sha256', cardFingerprintKey, '', 'currency-conversion-quote', 32);
    this.mac = new HmacSha256(Buffer.from(key));
  }

  /** `nonce` is for tests only; a quote gets a random one. */
  issue(terms: QuoteTerms, now: Date, nonce = randomBytes(6).toString('base64url')): string {
    const head = `${now.getTime().toString(36)}.${nonce}`;
    return `${head}.${this.sign(head, terms)}`;
  }

  /** Whether `requestId` is a quote of these very terms, and still within its 30 minutes. */
  check(requestId: string, terms: QuoteTerms, now: Date): QuoteCheck {
    const [time, nonce, mac, ...rest] = requestId.split('.');
    if (rest.length || mac === undefined || mac.length !== MAC_CHARS) return 'UNKNOWN';
    const head = `${time}.${nonce}`;
    if (!timingSafeEqual(Buffer.from(mac), Buffer.from(this.sign(head, terms)))) return 'UNKNOWN';
    return now.getTime() - parseInt(time, 36) < QUOTE_VALIDITY_MS ? 'VALID' : 'EXPIRED';
  }

  private sign(head: string, { merchantId, amount, currency, offer }: QuoteTerms): string {
    const terms = [
      merchantId,
      amount,
      currency,
      offer.provider,
      offer.payerCurrency,
      offer.payerAmount,
      offer.payerExchangeRate,
      offer.marginPercentage,
      offer.exchangeRateTime,
    ];
    return this.mac.of(`${head}\n`, terms.join('\n')).slice(0, MAC_CHARS);
  }
}
