import { ApiError } from '@gateway/contract';
import {
  agreementRefusal,
  agreementStreamId,
  agreementTerms,
  decideAgreement,
  establishedTerms,
  findTransaction,
  foldAgreement,
  isApproved,
  orderStreamId,
  type AgreementCitation,
  type AgreementEvent,
  type AgreementState,
  type CitingPayment,
  type TransactionState,
} from '@gateway/domain';
import { newEventId, WrongExpectedRevisionError, type EventStore } from '@gateway/event-store';
import type { KeyedMutex } from '../order/keyed-mutex';
import type { OrderRepository } from '../order/order.repository';
import { amount, get, optionalString, type Body } from '../transaction/body-fields';

/** Operations that may cite an agreement; the first three may establish one. */
const CITING = new Set(['AUTHORIZE', 'PAY', 'VERIFY', 'AUTHENTICATE_PAYER']);
const FUNDING = new Set(['AUTHORIZE', 'PAY', 'VERIFY']);

/**
 * Turns a validated body into the one to parse, once the pipeline knows it is no retry (a retry
 * gets its original answer whatever the agreement has become): refused with the spec's error,
 * or with the agreement group as the response shows it (a later payment: as established).
 */
export type AdmitBody = (body: Body) => Body;

/** One merchant request, as far as agreements are concerned. */
export interface CitingRequest {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly apiOperation: string;
  readonly body: Body;
}

/**
 * Agreements (behaviour notes, "Agreements"): a stream per (merchant, agreement) in the event
 * store. Requests citing one agreement run one at a time in this process (the shared KeyedMutex,
 * taken before the order's, never after), so of two first payments sent at once the second
 * becomes a later payment of the agreement the first established; across processes the append's
 * expected revision keeps the agreement established once (docs/agreements.md).
 */
export class Agreements {
  constructor(
    private readonly store: EventStore,
    private readonly locks: KeyedMutex,
    private readonly orders: OrderRepository,
  ) {}

  run<T>(request: CitingRequest, now: Date, process: (admit: AdmitBody) => Promise<T>): Promise<T> {
    const { body, apiOperation } = request;
    const exemption = optionalString(body, 'authentication.psd2.exemption');
    const cited = citationOf(body);
    if (!CITING.has(apiOperation) || (!cited && exemption === undefined))
      return process((sent) => sent);
    const today = now.toISOString().slice(0, 10);
    if (!cited) return process((sent) => admitted(undefined, undefined, sent, today));
    const streamId = agreementStreamId(request.merchantId, cited.id);
    return this.locks.run(streamId, async () => {
      const history = await this.load(streamId);
      const state = foldAgreement(history);
      const answer = await process((sent) => admitted(state, cited, sent, today));
      if (!state && cited.type !== undefined && FUNDING.has(apiOperation))
        await this.establish(streamId, request, cited);
      return answer;
    });
  }

  /** After the first payment is recorded on its order: the agreement, if it was approved. */
  private async establish(
    streamId: string,
    request: CitingRequest,
    cited: AgreementCitation,
  ): Promise<void> {
    const { state } = await this.orders.load(orderStreamId(request.merchantId, request.orderId));
    const tx = findTransaction(state, request.transactionId);
    if (!tx) return; // another writer kept the order (LOCK_FAILURE): nothing was paid
    const events = decideAgreement(undefined, cited, paymentOf(request, tx));
    if (!events.length) return;
    try {
      await this.store.appendToStream(
        streamId,
        events.map((e) => ({ eventId: newEventId(), type: e.type, data: e.data, metadata: {} })),
        'no_stream',
      );
    } catch (error) {
      // Another process established it first: the payment stands as a later one of that agreement.
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }

  private async load(streamId: string): Promise<AgreementEvent[]> {
    const stored = await this.store.readStream(streamId);
    return stored.map((e) => ({ type: e.type, data: e.data }) as AgreementEvent);
  }
}

/** The agreement group as sent; undefined without agreement.id. */
function citationOf(body: Body): AgreementCitation | undefined {
  const id = optionalString(body, 'agreement.id');
  if (id === undefined) return undefined;
  const type = optionalString(body, 'agreement.type') as AgreementCitation['type'];
  const expiryDate = optionalString(body, 'agreement.expiryDate');
  const days = get(body, 'agreement.recurring.daysBetweenPayments');
  return {
    id,
    ...(type !== undefined ? { type } : {}),
    ...(expiryDate !== undefined ? { expiryDate } : {}),
    ...(days !== undefined ? { daysBetweenPayments: Number(days) } : {}),
  };
}

/** The body to parse, or the spec's INVALID_REQUEST naming the field the agreement refuses. */
function admitted(
  state: AgreementState,
  cited: AgreementCitation | undefined,
  body: Body,
  today: string,
): Body {
  const sentAmount = get(body, 'order.amount') !== undefined;
  const refusal = agreementRefusal(state, {
    ...(cited ? { agreement: cited } : {}),
    exemption: optionalString(body, 'authentication.psd2.exemption'),
    ...(sentAmount ? { amount: amount(body, 'order.amount') } : {}),
    currency: optionalString(body, 'order.currency'),
    today,
  });
  if (refusal) throw ApiError.invalid(refusal.explanation, refusal.field);
  if (!cited) return body;
  return { ...body, agreement: agreementTerms(state ? establishedTerms(state) : cited) };
}

/** The first payment as its order recorded it: the card's fingerprint or token, never its number. */
function paymentOf(request: CitingRequest, tx: TransactionState): CitingPayment {
  const source = tx.sourceOfFunds;
  const fingerprint = source?.provided?.card?.fingerprint;
  const processor = tx.processor as { transaction?: { acquirer?: { transactionId?: string } } };
  const acquirerReference = processor.transaction?.acquirer?.transactionId;
  return {
    orderId: request.orderId,
    transactionId: tx.id,
    approved: isApproved(tx.gatewayCode),
    amount: tx.amount,
    currency: tx.currency,
    card: {
      ...(fingerprint !== undefined ? { fingerprint } : {}),
      ...(source?.token !== undefined ? { token: source.token } : {}),
    },
    payerAuthenticated: tx.proof?.status === 'AUTHENTICATION_SUCCESSFUL',
    ...(acquirerReference !== undefined ? { acquirerReference } : {}),
    time: tx.timeOfRecord,
  };
}
