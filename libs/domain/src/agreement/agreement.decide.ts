import type { Thousandths } from '../money';
import type { AgreementCard, AgreementCitation, AgreementEvent, AgreementState } from './agreement';

/** Exemptions the spec allows only on an agreement whose first payment authenticated the payer. */
const AGREEMENT_EXEMPTIONS = new Set(['MERCHANT_INITIATED_TRANSACTION', 'RECURRING_PAYMENT']);

/** What a request (AUTHORIZE, PAY, VERIFY, AUTHENTICATE_PAYER) asks of the agreement it cites. */
export interface AgreementRequest {
  readonly agreement?: AgreementCitation;
  /** authentication.psd2.exemption (AUTHENTICATE_PAYER). */
  readonly exemption?: string;
  readonly amount?: Thousandths;
  readonly currency?: string;
  /** The request's day, yyyy-mm-dd (UTC). */
  readonly today: string;
}

/** A request the agreement does not allow, naming the field at fault; nothing is stored for it. */
export interface AgreementRefusal {
  readonly field: string;
  readonly explanation: string;
}

/**
 * The agreement's rules (behaviour notes, "Agreements"; spec, authentication.psd2.exemption):
 * a payment after the expiry date, a change of type, an unknown agreement cited without a type,
 * an agreement exemption without an authenticated first payment, and a RECURRING_PAYMENT of
 * another amount than the first.
 */
export function agreementRefusal(
  state: AgreementState,
  request: AgreementRequest,
): AgreementRefusal | undefined {
  const { agreement: cited, exemption, today } = request;
  if (cited && state) {
    if (state.expiryDate !== undefined && today > state.expiryDate)
      return refusal('agreement.id', `Agreement '${cited.id}' expired on ${state.expiryDate}`);
    if (cited.type !== undefined && cited.type !== state.type)
      return refusal('agreement.type', `Agreement '${cited.id}' is of type ${state.type}`);
  } else if (cited) {
    if (cited.type === undefined)
      return refusal(
        'agreement.type',
        `Agreement '${cited.id}' is unknown: its first payment must give agreement.type`,
      );
    if (cited.expiryDate !== undefined && today > cited.expiryDate)
      return refusal('agreement.expiryDate', 'The agreement would have expired already');
  }
  if (exemption === undefined || !AGREEMENT_EXEMPTIONS.has(exemption)) return undefined;
  if (!state?.payerAuthenticated)
    return refusal(
      'authentication.psd2.exemption',
      `${exemption} needs an agreement whose first payment authenticated the payer`,
    );
  const { amount, currency } = request;
  const fixed =
    (amount === undefined || amount === state.amount) &&
    (currency === undefined || currency === state.currency);
  if (exemption === 'RECURRING_PAYMENT' && !fixed)
    return refusal(
      'order.amount',
      'RECURRING_PAYMENT needs the fixed amount of the first payment; use MERCHANT_INITIATED_TRANSACTION for varied amounts',
    );
  return undefined;
}

function refusal(field: string, explanation: string): AgreementRefusal {
  return { field, explanation: `Value is invalid. ${explanation}` };
}

/** A payment that cited an agreement, as its order recorded it. */
export interface CitingPayment {
  readonly orderId: string;
  readonly transactionId: string;
  readonly approved: boolean;
  readonly amount: Thousandths;
  readonly currency: string;
  readonly card: AgreementCard;
  readonly payerAuthenticated: boolean;
  readonly acquirerReference?: string;
  readonly time: string;
}

/**
 * The first approved payment giving agreement.type establishes the agreement; a declined one, a
 * later one, or the same one again (a retry) establishes nothing.
 */
export function decideAgreement(
  state: AgreementState,
  cited: AgreementCitation,
  payment: CitingPayment,
): AgreementEvent[] {
  if (state || cited.type === undefined || !payment.approved) return [];
  const { id: agreementId, type, expiryDate, daysBetweenPayments } = cited;
  const { approved: _approved, acquirerReference, ...first } = payment;
  return [
    {
      type: 'AgreementEstablished',
      data: {
        agreementId,
        type,
        ...(expiryDate !== undefined ? { expiryDate } : {}),
        ...(daysBetweenPayments !== undefined ? { daysBetweenPayments } : {}),
        ...first,
        ...(acquirerReference !== undefined ? { acquirerReference } : {}),
      },
    },
  ];
}
