import type { DeciderCommand, OrderRequest, RequestBase } from './order.commands';
import type { OrderEvent } from './order.events';
import { OrderRejection } from './order.rejection';
import { findTransaction, type Order, type OrderState } from './order.state';
import type {
  OpensTransaction,
  OperationDecider,
  RequestType,
  TransactionCommon,
} from './operations/operation-decider';
import { DECIDERS } from './operations/registry';

/**
 * decide(command, state) → events. Pure: the processor's answer, the time and the ids all arrive in
 * the command. Throws OrderRejection when the order's state does not allow the request. Each
 * request type's branch is in operations/ (DECIDERS); what all of them share is here.
 */
export function decide(command: DeciderCommand, state: OrderState): OrderEvent[] {
  const rejection = rejectionOf(command, state);
  if (rejection) throw rejection;
  return decideAccepted(command, state);
}

/** decide for a command whose rejectionOf the caller has just asked, against this same state. */
export function decideAccepted(command: DeciderCommand, state: OrderState): OrderEvent[] {
  const branch = branchOf(command.type);
  return branch.opens === 'step'
    ? branch.decide(command, state as Order)
    : decideNewTransaction(branch, command as OpeningCommand, state);
}

/**
 * Why the order cannot take this request, or undefined when it can. The gateway asks this before it
 * calls the processor, so an illegal request never reaches the acquirer.
 */
export function rejectionOf(request: OrderRequest, state: OrderState): OrderRejection | undefined {
  const branch = branchOf(request.type);
  if (branch.opens === 'step')
    return branch.rejection(request, state) ?? currencyRejection(request, state, 'order.currency');
  return (
    newTransactionRejection(request as OrderRequest & RequestBase, state, branch) ??
    branch.rejection(request, state)
  );
}

/**
 * The request with the answer the order gives itself, when nobody is to be asked: the caller
 * skips the acquirer. Undefined when the request is to be asked as usual.
 */
export function answeredWithoutAsking(
  request: OrderRequest,
  state: OrderState,
): DeciderCommand | undefined {
  const branch = branchOf(request.type);
  return branch.opens === 'transaction'
    ? branch.answeredWithoutAsking?.(request, state)
    : undefined;
}

function branchOf(type: RequestType): OperationDecider<RequestType> {
  return DECIDERS[type] as OperationDecider<RequestType>;
}

/** A command that opens a transaction is a merchant's request: it carries the echo, version, hash. */
type OpeningCommand = DeciderCommand & RequestBase;

function decideNewTransaction(
  branch: OpensTransaction<RequestType>,
  command: OpeningCommand,
  state: OrderState,
): OrderEvent[] {
  const currency = currencyOf(command, state);
  const created: OrderEvent[] =
    state.kind === 'NoOrder'
      ? [
          {
            type: 'OrderCreated',
            data: {
              merchantId: command.merchantId,
              orderId: command.orderId,
              currency,
              creationTime: command.now,
              ...(command.notificationUrl ? { notificationUrl: command.notificationUrl } : {}),
            },
          },
        ]
      : [];
  const common: { -readonly [K in keyof TransactionCommon]: TransactionCommon[K] } = {
    id: command.transactionId,
    currency,
    echo: command.echo,
    timeOfRecord: command.now,
    apiVersion: command.apiVersion,
    requestHash: command.requestHash,
  };
  const renotified = newNotificationUrl(command, state);
  if (renotified) common.notificationUrl = renotified; // rare: the usual shape stays as it was
  const reversal: OrderEvent[] = reversedByAcquirer(command)
    ? [
        {
          type: 'AuthorizationReversed',
          data: { transactionId: command.transactionId, reason: 'TIMED_OUT', time: command.now },
        },
      ]
    : [];
  return [...created, branch.event(command, state, common), ...reversal];
}

/**
 * order.notificationUrl given on a later transaction, when it differs from the order's: the
 * transaction's event carries it, and the order notifies there from that event on.
 */
function newNotificationUrl(command: OpeningCommand, state: OrderState): string | undefined {
  const url = command.notificationUrl;
  return state.kind === 'Order' && url && url !== state.notificationUrl ? url : undefined;
}

/** The acquirer timed out and reversed what it may have approved. */
function reversedByAcquirer(command: DeciderCommand): boolean {
  return 'outcome' in command && 'reversed' in command.outcome && command.outcome.reversed === true;
}

/** What every new transaction must respect: an unused id, first-only fields, the order's currency. */
function newTransactionRejection(
  request: OrderRequest & RequestBase,
  state: OrderState,
  branch: OpensTransaction<RequestType>,
): OrderRejection | undefined {
  if (state.kind !== 'Order') return undefined;
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
  return currencyRejection(request, state, branch.currencyField ?? 'order.currency');
}

function currencyRejection(
  request: OrderRequest,
  state: OrderState,
  field: string,
): OrderRejection | undefined {
  if (state.kind !== 'Order' || !('currency' in request) || request.currency === undefined)
    return undefined;
  if (request.currency === state.currency) return undefined;
  return new OrderRejection(
    field,
    `Value '${request.currency}' is invalid. The order's currency is ${state.currency}`,
  );
}

function currencyOf(command: OpeningCommand, state: OrderState): string {
  if ('currency' in command && command.currency !== undefined) return command.currency;
  return state.kind === 'Order' ? state.currency : '';
}
