import { renderAuthentication, renderProof } from './authentication.response';
import { renderBrowserPayment } from './browser-payment.response';
import { refundConversion, renderCurrencyConversion, renderGiftCard } from './funds.response';
import { withResponseAddresses } from './address.response';
import { MASKED_VIEW, type ResponseView } from './response-view';
import {
  maskCardNumber,
  resultOf,
  toDecimal,
  type Order,
  type OrderSnapshot,
  type DisputeRecord,
  type RecordedSourceOfFunds,
  type SettlementRecord,
  type TransactionState,
} from '@gateway/domain';

type Json = Record<string, unknown>;

/** Request groups echoed back as the merchant sent them (never card data: that lives in sourceOfFunds). */
const ECHOED_GROUPS = ['billing', 'customer', 'device', 'shipping'] as const;

/**
 * The response of the operation that created `tx`, showing the order as it stood right after it.
 * Built only from recorded events, so a retried request gets the same bytes back, even after a restart.
 */
export function renderTransaction(
  order: Order,
  tx: TransactionState,
  correlationId?: string,
  view: ResponseView = MASKED_VIEW,
): Json {
  const latest = tx.sourceOfFunds ? undefined : latestSourceOfFunds(order, tx);
  return renderWithSource(order, tx, latest, correlationId, view);
}

/** `source`: the card or account of the order's latest funding transaction up to `tx`. */
function renderWithSource(
  order: Order,
  tx: TransactionState,
  latestSource: RecordedSourceOfFunds | undefined,
  correlationId: string | undefined,
  view: ResponseView,
): Json {
  const { orderAfter } = tx;
  const processor = tx.processor as {
    response?: Json;
    transaction?: Json;
    risk?: Json;
    authorizationResponse?: Json;
    giftCard?: { availableBalance: { amount: number; currency: string } };
  };
  const echo = withResponseAddresses(tx.echo as Json);
  const source = tx.sourceOfFunds ?? latestSource;
  const authenticationStatus = tx.authentication?.status ?? tx.proof?.status;
  // Built member by member in the response's order (a retry must get the same bytes): spreading
  // optional members into one literal cost ~15 µs and several short-lived objects per response.
  const out: Json = {};
  if (echo.agreement !== undefined) out.agreement = echo.agreement;
  if (correlationId !== undefined) out.correlationId = correlationId;
  if (tx.authentication) out.authentication = renderAuthentication(order.orderId, tx);
  else if (tx.proof) out.authentication = renderProof(tx.proof);
  if (processor.authorizationResponse) out.authorizationResponse = processor.authorizationResponse;
  for (const group of ECHOED_GROUPS) if (echo[group] !== undefined) out[group] = echo[group];
  if (tx.browserPayment) out.browserPayment = renderBrowserPayment(tx.browserPayment);
  if (echo.currencyConversion)
    out.currencyConversion = renderCurrencyConversion(echo.currencyConversion as Json);
  else if (tx.type === 'REFUND') {
    const converted = refundConversion(order, tx);
    if (converted) out.currencyConversion = converted;
  }
  if (tx.authentication?.encryptedData) out.encryptedData = tx.authentication.encryptedData;
  out.gatewayEntryPoint = 'WEB_SERVICES_API';
  if (processor.giftCard) out.giftCard = renderGiftCard(processor.giftCard);
  out.merchant = order.merchantId;
  out.order = writeOrderStatus(copyOf(echo.order as Json | undefined), order, orderAfter);
  const response = copyOf(processor.response);
  response.gatewayCode = tx.gatewayCode;
  if (tx.authentication) response.gatewayRecommendation = tx.authentication.gatewayRecommendation;
  out.response = response;
  out.result = resultOf(tx.gatewayCode);
  if (processor.risk) out.risk = processor.risk;
  if (source) out.sourceOfFunds = renderSourceOfFunds(source, view);
  out.timeOfRecord = tx.timeOfRecord;
  out.transaction = renderTransactionMember(tx, processor.transaction, authenticationStatus);
  out.version = String(tx.apiVersion);
  return out;
}

/**
 * A copy to add members to. Not a spread: V8 keeps the map of a parsed (recorded) object in a
 * spread copy, and adding members to it then cost ~10 µs per response (no cached transitions).
 * Recorded objects are validated request fields and answers, never with a `__proto__` member.
 */
function copyOf(recorded: Json | undefined): Json {
  return Object.assign({}, recorded);
}

/** The response's `transaction`: what the processor said of it, then the recorded fields. */
function renderTransactionMember(
  tx: TransactionState,
  processor: Json | undefined,
  authenticationStatus: string | undefined,
): Json {
  const out = copyOf(processor);
  if (tx.settlement) out.acquirer = settledBy(out.acquirer as Json | undefined, tx.settlement);
  out.amount = toDecimal(tx.amount);
  if (authenticationStatus) out.authenticationStatus = authenticationStatus;
  out.currency = tx.currency;
  if (tx.disputes) out.disputes = tx.disputes.map(renderDispute);
  out.id = tx.id;
  if (tx.browserPayment?.providerD) out.providerD = tx.browserPayment.providerD;
  if (tx.reference !== undefined) out.reference = tx.reference;
  if (tx.requestedAmount !== undefined) out.requestedAmount = toDecimal(tx.requestedAmount);
  out.source = 'INTERNET';
  if (tx.targetTransactionId !== undefined) out.targetTransactionId = tx.targetTransactionId;
  out.type = tx.type;
  return out;
}

/** The batch the acquirer settled it in (normally the one it named when it answered), and how. */
function settledBy(acquirer: Json | undefined, settled: SettlementRecord): Json {
  const out = copyOf(acquirer);
  out.batch = settled.batch;
  out.settlementDate = settled.settlementDate;
  out.settlement = {
    amount: toDecimal(settled.settledAmount),
    fee: toDecimal(settled.fee),
    time: settled.time,
  };
  return out;
}

function renderDispute(dispute: DisputeRecord): Json {
  const ended = dispute.chargebackTransactionId;
  return {
    id: dispute.disputeId,
    amount: toDecimal(dispute.amount),
    status: ended === undefined ? 'OPEN' : 'CHARGEBACK_PROCESSED',
    openedTime: dispute.openedAt,
    ...(ended === undefined ? {} : { chargebackTransactionId: ended }),
  };
}

/**
 * The order's own fields (no echoed request fields) as they stood at `after`: the `order` member
 * of a transaction's response, and of the public order event (order-event.asyncapi.ts lists them).
 */
export function renderOrderStatus(order: Order, after: OrderSnapshot): Json {
  return writeOrderStatus({}, order, after);
}

/** renderOrderStatus's members written into `out` (over any it has, keeping their place). */
function writeOrderStatus(out: Json, order: Order, after: OrderSnapshot): Json {
  out.amount = toDecimal(after.amount);
  if (after.authenticationStatus) out.authenticationStatus = after.authenticationStatus;
  out.creationTime = order.creationTime;
  out.currency = order.currency;
  out.id = order.orderId;
  out.lastUpdatedTime = after.lastUpdatedTime;
  if (after.notificationUrl) out.notificationUrl = after.notificationUrl;
  out.status = after.status;
  out.totalAuthorizedAmount = toDecimal(after.totals.authorized);
  out.totalCapturedAmount = toDecimal(after.totals.captured);
  out.totalRefundedAmount = toDecimal(after.totals.refunded);
  // Only once the acquirer took money back: other orders' responses keep their bytes.
  if (after.totals.chargedBack) out.totalChargebackAmount = toDecimal(after.totals.chargedBack);
  return out;
}

/** Retrieve Order: the order's fields at the top level and every transaction in order. */
export function renderOrder(order: Order, view: ResponseView = MASKED_VIEW): Json {
  const first = order.transactions[0];
  const source = latestSourceOfFunds(order);
  return {
    ...(first ? (withResponseAddresses(first.echo as Json).order as Json | undefined) : undefined),
    amount: toDecimal(order.amount),
    ...(order.authenticationStatus ? { authenticationStatus: order.authenticationStatus } : {}),
    creationTime: order.creationTime,
    currency: order.currency,
    id: order.orderId,
    lastUpdatedTime: order.lastUpdatedTime,
    merchant: order.merchantId,
    ...(order.notificationUrl ? { notificationUrl: order.notificationUrl } : {}),
    result: 'SUCCESS',
    ...(source ? { sourceOfFunds: renderSourceOfFunds(source, view) } : {}),
    status: order.status,
    totalAuthorizedAmount: toDecimal(order.totals.authorized),
    totalCapturedAmount: toDecimal(order.totals.captured),
    totalRefundedAmount: toDecimal(order.totals.refunded),
    ...(order.totals.chargedBack
      ? { totalChargebackAmount: toDecimal(order.totals.chargedBack) }
      : {}),
    transaction: renderTransactions(order, view),
  };
}

/** Every transaction, carrying the latest funding source along: linear in the order's length. */
function renderTransactions(order: Order, view: ResponseView): Json[] {
  let latest: RecordedSourceOfFunds | undefined;
  return order.transactions.map((tx) => {
    const rendered = renderWithSource(order, tx, latest, undefined, view);
    latest = tx.sourceOfFunds ?? latest;
    return rendered;
  });
}

/**
 * The card under the caller's mask, without its fingerprint; bank numbers in clear only for
 * UNMASK (and only those sealed when recorded), otherwise as recorded: masked.
 */
function renderSourceOfFunds(source: RecordedSourceOfFunds, view: ResponseView): Json {
  const token = source.token !== undefined ? { token: source.token } : {};
  if (!source.provided) return { ...token, type: source.type };
  const provided: Json = {};
  for (const [group, details] of Object.entries(source.provided)) {
    if (group === 'card' && source.provided.card) {
      const { fingerprint: _fingerprint, ...card } = source.provided.card;
      provided.card = { ...card, number: maskCardNumber(card.number, view.cardMask) };
      continue;
    }
    const shown: Json = { ...(details as Json) };
    for (const [field, sealed] of Object.entries(source.sealed ?? {})) {
      const [sealedGroup, member] = field.split('.');
      const clear = sealedGroup === group ? view.unmask?.(sealed, field) : undefined;
      if (clear !== undefined) shown[member] = clear;
    }
    provided[group] = shown;
  }
  return { provided, ...token, type: source.type };
}

/** Captures, refunds and voids carry no card: they show the card of the order's latest funding transaction. */
function latestSourceOfFunds(
  order: Order,
  before?: TransactionState,
): RecordedSourceOfFunds | undefined {
  const upTo = before ? order.transactions.indexOf(before) : order.transactions.length;
  for (let i = upTo - 1; i >= 0; i--) {
    const source = order.transactions[i].sourceOfFunds;
    if (source) return source;
  }
  return undefined;
}

/**
 * The answer when another writer kept winning the race for the order's stream: nothing was
 * recorded, and the merchant retries (behaviour notes, "Transaction ids, retries and concurrency").
 */
export function lockFailure(
  command: { merchant: { id: string }; orderId: string; transactionId: string; apiVersion: number },
  correlationId?: string,
): Json {
  return {
    ...(correlationId !== undefined ? { correlationId } : {}),
    gatewayEntryPoint: 'WEB_SERVICES_API',
    merchant: command.merchant.id,
    order: { id: command.orderId },
    response: {
      gatewayCode: 'LOCK_FAILURE',
      acquirerMessage: 'Another transaction is in progress on the order',
    },
    result: 'FAILURE',
    transaction: { id: command.transactionId },
    version: String(command.apiVersion),
  };
}
