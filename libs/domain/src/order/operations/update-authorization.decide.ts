import { toDecimal } from '../../money';
import type { UpdateAuthorization } from '../order.commands';
import { OrderRejection } from '../order.rejection';
import type { Order, TransactionState } from '../order.state';
import { isApproved, type RecordedCard } from '../order.types';
import type { OpensTransaction } from './operation-decider';
import { processedRecord } from './processed';
import { noSuchOrder } from './rejections';

/**
 * The order's approved authorization, voided or not. An order holds at most one: once one is
 * approved the order takes no new AUTHORIZE, and a voided one leaves it CANCELLED.
 */
function authorizationOf(order: Order): TransactionState | undefined {
  return order.transactions.find((t) => t.type === 'AUTHORIZATION' && isApproved(t.gatewayCode));
}

/** The card the order's authorization was made with: what the acquirer answers an update for. */
export function authorizedCardOf(order: Order): RecordedCard | undefined {
  return authorizationOf(order)?.sourceOfFunds?.provided?.card;
}

/**
 * Refused as CAPTURE refuses what the order does not allow: INVALID on transaction.amount. Decided
 * here: only a card authorization can be updated (the acquirer answers for the card; an account or
 * a provider's payment has none), and the new total is above zero (VOID releases all of it).
 */
function updateRejection(request: UpdateAuthorization, order: Order): OrderRejection | undefined {
  const invalid = (why: string) =>
    new OrderRejection(
      'transaction.amount',
      `Value '${toDecimal(request.amount)}' is invalid. ${why}`,
    );
  const authorization = authorizationOf(order);
  if (!authorization) return invalid('The order has no approved authorization to update');
  if (authorization.voided) return invalid("The order's authorization has been voided");
  if (!authorization.sourceOfFunds?.provided?.card)
    return invalid('Only the authorization of a card can be updated');
  if (request.amount <= 0) return invalid('Amount must be greater than zero');
  if (request.amount < order.totals.captured) {
    return invalid(
      `Amount is below the ${toDecimal(order.totals.captured)} already captured on the order`,
    );
  }
  return undefined;
}

/**
 * UPDATE_AUTHORIZATION: an AUTHORIZATION_UPDATE whose amount, once approved, is the order's new
 * total authorized amount (higher or lower); a decline leaves the total as it was.
 */
export const updateAuthorizationDecider: OpensTransaction<'UPDATE_AUTHORIZATION'> = {
  opens: 'transaction',
  currencyField: 'transaction.currency',
  rejection: (request, state) =>
    state.kind === 'NoOrder' ? noSuchOrder(request) : updateRejection(request, state),
  event: (command, _state, common) => ({
    type: 'AuthorizationUpdateProcessed',
    data: processedRecord(command, common, 'AUTHORIZATION_UPDATE', { amount: command.amount }),
  }),
};
