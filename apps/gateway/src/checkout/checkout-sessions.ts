import { ApiError, findEmbeddedCardNumber } from '@gateway/contract';
import { createHmac } from 'node:crypto';
import { newVersion, type PaymentSessions } from '../session/payment-sessions';
import type { SessionStore, StoredSession } from '../session/session.store';
import type { Clock } from '../tokens';
import { termsOf, type CheckoutTerms } from './checkout-terms';

type Json = Record<string, unknown>;

/** A live checkout session: a payment session with terms. */
export type CheckoutSession = StoredSession & { readonly content: { checkout: CheckoutTerms } };

/**
 * Checkout sessions (behaviour notes, "Hosted Checkout"): payment sessions with terms, stored with
 * them (sessions.db, sealed). The successIndicator is not stored at all: it is an HMAC of the
 * session under a key of the data directory, so it cannot be read from the store or guessed, and
 * the page can give it only when a payment succeeded.
 */
export class CheckoutSessions {
  constructor(
    private readonly sessions: PaymentSessions,
    private readonly store: SessionStore,
    private readonly clock: Clock,
    private readonly indicatorKey: Buffer,
  ) {}

  /** The 201 body of INITIATE_CHECKOUT: the session without its key, and the successIndicator. */
  async create(merchantId: string, apiVersion: number, value: Json): Promise<Json> {
    const cardData = findEmbeddedCardNumber(value);
    if (cardData) throw ApiError.fromFieldError(cardData);
    const session = await this.sessions.create(merchantId, termsOf(apiVersion, value));
    return {
      merchant: merchantId,
      result: 'SUCCESS',
      session: { id: session.id, updateStatus: 'NO_UPDATE', version: session.version },
      successIndicator: this.successIndicatorOf(session),
    };
  }

  successIndicatorOf(session: StoredSession): string {
    return createHmac('sha256', this.indicatorKey)
      .update(`successIndicator\n${session.merchantId}\n${session.id}`)
      .digest()
      .subarray(0, 16)
      .toString('hex');
  }

  /** The live checkout session of this id, whoever's it is; undefined when expired or not one. */
  async find(id: string): Promise<CheckoutSession | undefined> {
    const now = this.clock();
    const merchantId = await this.store.merchantOf(id, now);
    const session = merchantId && (await this.store.find(merchantId, id, now));
    return session && session.content.checkout ? (session as CheckoutSession) : undefined;
  }

  /**
   * Marks the session paid, with the saved card's fields if any. The payment is made: should an
   * Update Session by the merchant have changed the session meanwhile, it is read again (the
   * version moved, nothing this page relies on did). Undefined only when it was already completed.
   */
  async complete(session: CheckoutSession, fields?: Json): Promise<CheckoutSession | undefined> {
    for (let current: CheckoutSession | undefined = session; current;) {
      if (current.content.checkout.completed) return undefined;
      const done = await this.advance(
        current,
        { completed: true },
        fields ?? current.content.fields,
      );
      if (done) return done;
      current = await this.find(session.id);
    }
    return undefined;
  }

  /**
   * The session with its terms changed (and its fields, when given), if no other request changed it first (the version is the
   * lock): each payment attempt and the completion are taken once.
   */
  async advance(
    session: CheckoutSession,
    change: Partial<Pick<CheckoutTerms, 'attempts' | 'completed' | 'challenge'>>,
    fields: Json = session.content.fields,
  ): Promise<CheckoutSession | undefined> {
    const content = {
      ...session.content,
      fields,
      checkout: { ...session.content.checkout, ...change },
    };
    const next = { version: newVersion(), content };
    if (!(await this.store.replace(session.merchantId, session.id, session.version, next)))
      return undefined;
    return { ...session, ...next };
  }
}
