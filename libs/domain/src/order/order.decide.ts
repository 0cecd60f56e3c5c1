import type { Thousandths } from '../money';
import { toDecimal } from '../money';
import {
  authenticationInitiated,
  authenticationStepRejection,
  decideAuthenticationStep,
  paymentForbiddenByAuthentication,
  proofFor,
  proofRejection,
} from './authentication.decide';
import {
  browserPaymentInitiated,
  browserPaymentStepRejection,
  decideBrowserPaymentStep,
} from './browser-payment.decide';
import type { DeciderCommand, OrderRequest, Refund, Void } from './order.commands';
import type { OrderEvent, TransactionRecord } from './order.events';
import { OrderRejection } from './order.rejection';
import { acceptsNewPayment } from './order.rules';
import type { Order, OrderState, TransactionState } from './order.state';
import { isApproved, type TransactionType } from './order.types';

/**
 * decide(command, state) → events. Pure: the processor's answer, the time and the ids all arrive in
 * the command. Throws OrderRejection when the order's state does not allow the request.
 */
export function decide(command: DeciderCommand, state: OrderState): OrderEvent[] {
  const rejection = rejectionOf(command, state);
  if (rejection) throw rejection;
  return decideAccepted(command, state);
}

/** decide for a command whose rejectionOf the caller has just asked, against this same state. */
export function decideAccepted(command: DeciderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'AuthenticatePayer':
    case 'CompleteChallenge':
      return decideAuthenticationStep(command, state as Order);
    case 'RedirectToProvider':
    case 'ReturnFromProvider':
    case 'ConfirmBrowserPayment':
      return decideBrowserPaymentStep(command, state as Order);
    default:
      return decideNewTransaction(command, state);
  }
}

/** Later steps of an existing transaction; every other request opens a new one. */
type ContinuationType =
  | 'AuthenticatePayer'
  | 'CompleteChallenge'
  | 'RedirectToProvider'
  | 'ReturnFromProvider'
  | 'ConfirmBrowserPayment';

type NewTransactionCommand = Exclude<DeciderCommand, { type: ContinuationType }>;

function decideNewTransaction(command: NewTransactionCommand, state: OrderState): OrderEvent[] {
  const created: OrderEvent[] =
    state.kind === 'NoOrder'
      ? [
          {
            type: 'OrderCreated',
            data: {
              merchantId: command.merchantId,
              orderId: command.orderId,
              currency: currencyOf(command, state),
              creationTime: command.now,
              ...(command.notificationUrl ? { notificationUrl: command.notificationUrl } : {}),
            },
          },
        ]
      : [];
  const reversal: OrderEvent[] =
    'reversed' in command.outcome && command.outcome.reversed
      ? [
          {
            type: 'AuthorizationReversed',
            data: { transactionId: command.transactionId, reason: 'TIMED_OUT', time: command.now },
          },
        ]
      : [];
  return [...created, transactionEvent(command, state), ...reversal];
}

/**
 * Why the order cannot take this request, or undefined when it can. The gateway asks this before it
 * calls the processor, so an illegal request never reaches the acquirer; decide asks it again.
 */
export function rejectionOf(request: OrderRequest, state: OrderState): OrderRejection | undefined {
  switch (request.type) {
    case 'AuthenticatePayer':
    case 'CompleteChallenge':
      return authenticationStepRejection(request, state) ?? currencyRejection(request, state);
    case 'RedirectToProvider':
    case 'ReturnFromProvider':
    case 'ConfirmBrowserPayment':
      return browserPaymentStepRejection(request, state) ?? currencyRejection(request, state);
    default:
      return newTransactionRejection(request, state);
  }
}

function currencyRejection(request: OrderRequest, state: OrderState): OrderRejection | undefined {
  if (state.kind !== 'Order' || !('currency' in request) || request.currency === undefined)
    return undefined;
  if (request.currency === state.currency) return undefined;
  const field =
    request.type === 'Capture' || request.type === 'Refund'
      ? 'transaction.currency'
      : 'order.currency';
  return new OrderRejection(
    field,
    `Value '${request.currency}' is invalid. The order's currency is ${state.currency}`,
  );
}

function newTransactionRejection(
  request: Exclude<OrderRequest, { type: ContinuationType }>,
  state: OrderState,
): OrderRejection | undefined {
  if (state.kind === 'Order') {
    if (findTransaction(state, request.transactionId)) {
      return new OrderRejection(
        'transaction.id',
        `Transaction '${request.transactionId}' already exists on order '${request.orderId}' with a different request. Use a new transaction id.`,
      );
    }
    const initialOnly = request.firstTransactionOnly?.[0];
    if (initialOnly !== undefined) {
      return new OrderRejection(
        initialOnly,
        `Field '${initialOnly}' is accepted only on the initial transaction of an order`,
      );
    }
    const currency = currencyRejection(request, state);
    if (currency) return currency;
  }
  switch (request.type) {
    case 'Authorize':
    case 'Pay':
      return openOrderRejection(request, state) ?? proofRejection(request, state);
    case 'Verify':
    case 'InitiateAuthentication':
    case 'InitiateBrowserPayment':
      return openOrderRejection(request, state);
    case 'Capture':
      if (state.kind === 'NoOrder') return noSuchOrder(request);
      return exceeds(
        request.amount,
        state.totals.authorized - state.totals.captured,
        'authorized and not yet captured',
      );
    case 'Refund':
      return refundRejection(request, state);
    case 'Void':
      if (state.kind === 'NoOrder') return noSuchOrder(request);
      return voidRejection(request, state);
    default: {
      const unexpected: never = request;
      return unexpected;
    }
  }
}

function openOrderRejection(request: OrderRequest, state: OrderState): OrderRejection | undefined {
  return state.kind === 'Order' && !acceptsNewPayment(state)
    ? new OrderRejection(
        'apiOperation',
        `Order '${request.orderId}' already has status ${state.status}; use a new order id`,
      )
    : undefined;
}

export function findTransaction(
  state: OrderState,
  transactionId: string,
): TransactionState | undefined {
  return state.kind === 'Order'
    ? state.transactions.find((t) => t.id === transactionId)
    : undefined;
}

function noSuchOrder(request: OrderRequest): OrderRejection {
  return new OrderRejection('order.id', `Order '${request.orderId}' does not exist`);
}

function exceeds(
  amount: Thousandths,
  available: Thousandths,
  what: string,
): OrderRejection | undefined {
  if (amount <= 0) {
    return new OrderRejection(
      'transaction.amount',
      `Value '${toDecimal(amount)}' is invalid. Amount must be greater than zero`,
    );
  }
  if (amount > available) {
    return new OrderRejection(
      'transaction.amount',
      `Value '${toDecimal(amount)}' is invalid. Amount exceeds the ${toDecimal(available)} ${what} on the order`,
    );
  }
  return undefined;
}

function refundRejection(request: Refund, state: OrderState): OrderRejection | undefined {
  if (state.kind === 'NoOrder') {
    return request.sourceOfFunds
      ? exceeds(request.amount, Number.MAX_SAFE_INTEGER, '')
      : new OrderRejection(
          'sourceOfFunds',
          'A standalone refund (a new order) requires sourceOfFunds',
          'MISSING',
        );
  }
  if (request.sourceOfFunds) {
    return new OrderRejection(
      'sourceOfFunds',
      'sourceOfFunds must not be supplied on a refund of an existing order',
    );
  }
  if (request.targetTransactionId !== undefined) {
    const target = findTransaction(state, request.targetTransactionId);
    if (!target || !isRefundable(target)) {
      return new OrderRejection(
        'transaction.targetTransactionId',
        `Value '${request.targetTransactionId}' is invalid. It must name an approved, unvoided capture or payment of the order`,
      );
    }
    return exceeds(
      request.amount,
      target.amount - target.refundedAmount,
      'captured and not yet refunded by that transaction',
    );
  }
  return exceeds(
    request.amount,
    state.totals.captured - state.totals.refunded,
    'captured and not yet refunded',
  );
}

function voidRejection(request: Void, order: Order): OrderRejection | undefined {
  const target = order.transactions.find((t) => t.id === request.targetTransactionId);
  const invalid = (why: string) =>
    new OrderRejection(
      'transaction.targetTransactionId',
      `Value '${request.targetTransactionId}' is invalid. ${why}`,
    );
  if (!target) return invalid('No such transaction on the order');
  if (!(target.type in VOID_OF)) return invalid(`A ${target.type} transaction cannot be voided`);
  if (!isApproved(target.gatewayCode)) return invalid('Only an approved transaction can be voided');
  if (target.voided) return invalid('The transaction has already been voided');
  if (hasDependants(order, target))
    return invalid('Later transactions depend on it; void those first');
  return undefined;
}

const VOID_OF: Partial<Record<TransactionType, TransactionType>> = {
  AUTHORIZATION: 'VOID_AUTHORIZATION',
  CAPTURE: 'VOID_CAPTURE',
  PAYMENT: 'VOID_PAYMENT',
  REFUND: 'VOID_REFUND',
};

function isRefundable(t: TransactionState): boolean {
  return (t.type === 'CAPTURE' || t.type === 'PAYMENT') && isApproved(t.gatewayCode) && !t.voided;
}

/** An authorization with live captures, or a capture or payment with refunds, cannot be voided. */
function hasDependants(order: Order, target: TransactionState): boolean {
  if (target.type === 'AUTHORIZATION') {
    return order.transactions.some(
      (t) => t.type === 'CAPTURE' && isApproved(t.gatewayCode) && !t.voided,
    );
  }
  return target.refundedAmount > 0;
}

function currencyOf(command: NewTransactionCommand, state: OrderState): string {
  if ('currency' in command && command.currency !== undefined) return command.currency;
  return state.kind === 'Order' ? state.currency : '';
}

/** Refunds without a named target go against the latest capture or payment that can take them. */
function refundTarget(request: Refund, order: Order): string | undefined {
  if (request.targetTransactionId !== undefined) return request.targetTransactionId;
  // The latest one with enough left, else the latest with anything left: evolve spreads the rest.
  const candidates = order.transactions.filter(isRefundable).reverse();
  const left = (t: TransactionState) => t.amount - t.refundedAmount;
  return (candidates.find((t) => left(t) >= request.amount) ?? candidates.find((t) => left(t) > 0))
    ?.id;
}

function transactionEvent(command: NewTransactionCommand, state: OrderState): OrderEvent {
  const common = {
    id: command.transactionId,
    currency: currencyOf(command, state),
    echo: command.echo,
    timeOfRecord: command.now,
    apiVersion: command.apiVersion,
    requestHash: command.requestHash,
  };
  switch (command.type) {
    case 'InitiateAuthentication':
      return authenticationInitiated(command, {
        ...common,
        gatewayCode: 'APPROVED',
        processor: {},
      });
    case 'InitiateBrowserPayment':
      return browserPaymentInitiated(command, { ...common, gatewayCode: 'PENDING', processor: {} });
    default:
      return paymentEvent(command, state, common);
  }
}

function paymentEvent(
  command: Extract<NewTransactionCommand, { outcome: { details: unknown } }>,
  state: OrderState,
  common: Omit<TransactionRecord, 'type' | 'amount' | 'gatewayCode' | 'processor'>,
): OrderEvent {
  const { outcome } = command;
  const base = { ...common, gatewayCode: outcome.gatewayCode, processor: outcome.details };
  const requested = (asked: Thousandths) =>
    outcome.gatewayCode === 'PARTIALLY_APPROVED'
      ? { amount: outcome.approvedAmount, requestedAmount: asked }
      : { amount: asked };
  const reference =
    'reference' in command && command.reference !== undefined
      ? { reference: command.reference }
      : {};
  const record = (type: TransactionType, extra: Partial<TransactionRecord>): TransactionRecord => ({
    ...base,
    type,
    amount: 0,
    ...reference,
    ...extra,
  });

  switch (command.type) {
    case 'Authorize':
    case 'Pay': {
      const proof = proofFor(command, state);
      const data = record(command.type === 'Pay' ? 'PAYMENT' : 'AUTHORIZATION', {
        ...requested(command.amount),
        sourceOfFunds: command.sourceOfFunds,
        ...(proof ? { proof } : {}),
        // The issuer asked not to proceed (behaviour notes, 3-D Secure flow): never approved.
        ...(paymentForbiddenByAuthentication(command, state)
          ? { gatewayCode: 'AUTHENTICATION_FAILED' as const, amount: command.amount }
          : {}),
      });
      return command.type === 'Pay'
        ? { type: 'PaymentProcessed', data }
        : { type: 'AuthorizationProcessed', data };
    }
    case 'Verify':
      // Verify's amount serves risk assessment only; no money is asked for.
      return {
        type: 'VerificationProcessed',
        data: record('VERIFICATION', { sourceOfFunds: command.sourceOfFunds }),
      };
    case 'Capture':
      return { type: 'CaptureProcessed', data: record('CAPTURE', { amount: command.amount }) };
    case 'Refund': {
      const targetTransactionId = state.kind === 'Order' ? refundTarget(command, state) : undefined;
      return {
        type: 'RefundProcessed',
        data: record('REFUND', {
          amount: command.amount,
          ...(targetTransactionId ? { targetTransactionId } : {}),
          ...(command.sourceOfFunds ? { sourceOfFunds: command.sourceOfFunds } : {}),
        }),
      };
    }
    case 'Void': {
      const target = findTransaction(state, command.targetTransactionId) as TransactionState;
      return {
        type: 'VoidProcessed',
        data: record(VOID_OF[target.type] as TransactionType, {
          amount: target.amount,
          targetTransactionId: target.id,
        }),
      };
    }
    default: {
      const unexpected: never = command;
      return unexpected;
    }
  }
}
