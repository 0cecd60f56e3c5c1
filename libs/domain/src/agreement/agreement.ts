import type { Thousandths } from '../money';

/**
 * Agreements for recurring, instalment and unscheduled payments (behaviour notes, "Agreements"):
 * established by the first approved payment carrying `agreement.id` and `agreement.type`, cited
 * by `agreement.id` on the payments after it. Its history is a stream per (merchant, agreement).
 */

export const AGREEMENT_TYPES = ['INSTALLMENT', 'OTHER', 'RECURRING', 'UNSCHEDULED'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

/** One stream per (merchant, agreement). Merchant ids cannot contain ':'. */
export function agreementStreamId(merchantId: string, agreementId: string): string {
  return `agreement:${merchantId}:${agreementId}`;
}

/** The agreement group as a request sends it. */
export interface AgreementCitation {
  readonly id: string;
  readonly type?: AgreementType;
  /** yyyy-mm-dd: the last day a payment may cite the agreement. */
  readonly expiryDate?: string;
  readonly daysBetweenPayments?: number;
}

/** The card of the first payment: its keyed fingerprint, or the token it came from; never the number. */
export interface AgreementCard {
  readonly fingerprint?: string;
  readonly token?: string;
}

/** What the first payment established (the AgreementEstablished event's data). */
export interface AgreementRecord {
  readonly agreementId: string;
  readonly type: AgreementType;
  readonly expiryDate?: string;
  readonly daysBetweenPayments?: number;
  readonly amount: Thousandths;
  readonly currency: string;
  readonly card: AgreementCard;
  /** The payer was authenticated by 3-D Secure (AUTHENTICATION_SUCCESSFUL) on the first payment. */
  readonly payerAuthenticated: boolean;
  /** The acquirer's transaction id of the first payment: its reference for the series. */
  readonly acquirerReference?: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly time: string;
}

export type AgreementEvent = {
  readonly type: 'AgreementEstablished';
  readonly data: AgreementRecord;
};

/** The agreement as its events leave it; undefined when none was established. */
export type AgreementState = AgreementRecord | undefined;

export function evolveAgreement(state: AgreementState, event: AgreementEvent): AgreementState {
  switch (event.type) {
    case 'AgreementEstablished':
      return state ?? event.data; // established once: a second first payment changes nothing
  }
}

export function foldAgreement(events: readonly AgreementEvent[]): AgreementState {
  return events.reduce(evolveAgreement, undefined);
}

/**
 * The agreement group a response shows: a first payment's terms as sent, a later payment's as
 * established (a citation or a record's terms), the number of days always a number.
 */
export function agreementTerms(terms: AgreementCitation): Record<string, unknown> {
  const { id, type, expiryDate, daysBetweenPayments } = terms;
  return {
    ...(expiryDate !== undefined ? { expiryDate } : {}),
    id,
    ...(daysBetweenPayments !== undefined ? { recurring: { daysBetweenPayments } } : {}),
    ...(type !== undefined ? { type } : {}),
  };
}

/** The terms an agreement was established with, as a citation of them. */
export function establishedTerms(record: AgreementRecord): AgreementCitation {
  const { agreementId: id, type, expiryDate, daysBetweenPayments } = record;
  return {
    id,
    type,
    ...(expiryDate !== undefined ? { expiryDate } : {}),
    ...(daysBetweenPayments !== undefined ? { daysBetweenPayments } : {}),
  };
}
