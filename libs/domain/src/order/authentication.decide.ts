import type { AuthenticatePayer, CompleteChallenge } from './authentication.commands';
import {
  forbidsPayment,
  type AuthenticationProof,
  type AuthenticationRecord,
  type ThreeDsResult,
} from './authentication.types';
import type { Authorize, Pay } from './order.commands';
import { OrderRejection } from './order.rejection';
import { findTransaction, type OrderState, type TransactionState } from './order.state';
import { isSameCard, type GatewayCode } from './order.types';

/**
 * The AUTHENTICATION transaction that AUTHENTICATE_PAYER and the challenge continue: the one
 * INITIATE_AUTHENTICATION opened on the same ids (spec, rule 1), or why there is none.
 */
export function initiatedAuthentication(
  request: AuthenticatePayer | CompleteChallenge,
  state: OrderState,
): OrderRejection | (TransactionState & { readonly authentication: AuthenticationRecord }) {
  if (state.kind === 'NoOrder') {
    return new OrderRejection(
      'order.id',
      `Order '${request.orderId}' does not exist. Send INITIATE_AUTHENTICATION on the same order and transaction ids first`,
    );
  }
  const tx = findTransaction(state, request.transactionId);
  if (!tx?.authentication?.status) {
    return new OrderRejection(
      'transaction.id',
      `No INITIATE_AUTHENTICATION with transaction id '${request.transactionId}' on order '${request.orderId}'. Send it first`,
    );
  }
  return tx as TransactionState & { readonly authentication: AuthenticationRecord };
}

/** An AUTHORIZE or PAY citing authentication.transactionId must cite a completed authentication of this order and card. */
export function proofRejection(
  request: Authorize | Pay,
  state: OrderState,
): OrderRejection | undefined {
  const cited = request.authenticationTransactionId;
  if (cited === undefined) return undefined;
  const invalid = (why: string) =>
    new OrderRejection('authentication.transactionId', `Value '${cited}' is invalid. ${why}`);
  const tx = findTransaction(state, cited);
  const authentication = tx?.authentication;
  if (!tx || !authentication)
    return invalid('It must name a 3-D Secure authentication of this order');
  if (
    authentication.status === 'AUTHENTICATION_AVAILABLE' ||
    authentication.status === 'AUTHENTICATION_PENDING'
  )
    return invalid(`The authentication is not complete (${authentication.status})`);
  const card = request.sourceOfFunds.provided?.card;
  if (card ? !isSameCard(tx.sourceOfFunds?.provided?.card, card) : tx.sourceOfFunds?.provided?.card)
    return invalid('The authentication was for a different card');
  return undefined;
}

/**
 * An AUTHORIZE or PAY naming a `3DSecureId` must name a 3-D Secure record of this order (an
 * authentication transaction): one that names nothing is refused, never silently ignored
 * (behaviour notes, "What real merchant clients need besides their fields").
 */
export function threeDSecureIdRejection(
  request: Authorize | Pay,
  state: OrderState,
): OrderRejection | undefined {
  const named = request.threeDSecureId;
  if (named === undefined) return undefined;
  return findTransaction(state, named)?.authentication
    ? undefined
    : new OrderRejection(
        '3DSecureId',
        `Value '${named}' is invalid. It must name a 3-D Secure authentication of this order`,
      );
}

/** The issuer said not to proceed: the payment is recorded as AUTHENTICATION_FAILED and never reaches the acquirer. */
export function paymentForbiddenByAuthentication(
  request: Authorize | Pay,
  state: OrderState,
): boolean {
  const status = citedAuthentication(request, state)?.authentication?.status;
  return status !== undefined && forbidsPayment(status);
}

export function proofFor(
  request: Authorize | Pay,
  state: OrderState,
): AuthenticationProof | undefined {
  const tx = citedAuthentication(request, state);
  const authentication = tx?.authentication;
  if (!tx || !authentication) return undefined;
  return {
    transactionId: tx.id,
    status: authentication.status,
    version: authentication.version,
    ...(authentication.result ? { result: authentication.result } : {}),
  };
}

function citedAuthentication(
  request: Authorize | Pay,
  state: OrderState,
): TransactionState | undefined {
  const cited = request.authenticationTransactionId;
  return cited === undefined ? undefined : findTransaction(state, cited);
}

/** A completed authentication's status, result and recommendation. */
export function completed(
  result: ThreeDsResult,
): Pick<AuthenticationRecord, 'status' | 'result' | 'gatewayRecommendation'> {
  return {
    status: result.status,
    result,
    gatewayRecommendation: forbidsPayment(result.status) ? 'DO_NOT_PROCEED' : 'PROCEED',
  };
}

/** A cancelled challenge is ABORTED; a failed or rejected authentication DECLINED. */
export function gatewayCodeOf(result: ThreeDsResult): GatewayCode {
  if (result.challengeCancelled) return 'ABORTED';
  return forbidsPayment(result.status) ? 'DECLINED' : 'APPROVED';
}
