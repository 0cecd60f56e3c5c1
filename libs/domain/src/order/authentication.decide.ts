import type {
  AuthenticatePayer,
  CompleteChallenge,
  InitiateAuthentication,
  AuthenticationLookup,
  PayerAuthenticationAnswer,
  ChallengeAnswer,
} from './authentication.commands';
import {
  forbidsPayment,
  type AuthenticationProof,
  type AuthenticationRecord,
  type ThreeDsResult,
} from './authentication.types';
import type { Authorize, Pay } from './order.commands';
import type { OrderEvent, TransactionRecord, TransactionRevision } from './order.events';
import { OrderRejection } from './order.rejection';
import type { Order, OrderState, TransactionState } from './order.state';
import { isSameCard, type GatewayCode } from './order.types';

/**
 * AUTHENTICATE_PAYER continues the authentication that INITIATE_AUTHENTICATION opened on the same
 * ids (spec, rule 1), and only while authentication is available and not yet attempted; the
 * challenge page completes only a pending challenge.
 */
export function authenticationStepRejection(
  request: AuthenticatePayer | CompleteChallenge,
  state: OrderState,
): OrderRejection | undefined {
  if (state.kind === 'NoOrder') {
    return new OrderRejection(
      'order.id',
      `Order '${request.orderId}' does not exist. Send INITIATE_AUTHENTICATION on the same order and transaction ids first`,
    );
  }
  const tx = state.transactions.find((t) => t.id === request.transactionId);
  const status = tx?.authentication?.status;
  if (!tx || !status) {
    return new OrderRejection(
      'transaction.id',
      `No INITIATE_AUTHENTICATION with transaction id '${request.transactionId}' on order '${request.orderId}'. Send it first`,
    );
  }
  if (request.type === 'CompleteChallenge') {
    return status === 'AUTHENTICATION_PENDING'
      ? undefined
      : new OrderRejection('transaction.id', `The challenge is no longer pending (${status})`);
  }
  if (status === 'AUTHENTICATION_UNAVAILABLE') {
    return new OrderRejection(
      'apiOperation',
      'Authentication is not available for this card (AUTHENTICATION_UNAVAILABLE); proceed without it',
    );
  }
  if (status !== 'AUTHENTICATION_AVAILABLE') {
    return new OrderRejection(
      'transaction.id',
      `Transaction '${request.transactionId}' has already authenticated the payer (${status}). Use a new transaction id`,
    );
  }
  const asked = { ...tx.authentication?.request, ...request.authentication };
  if (asked.channel !== 'MERCHANT_REQUESTED' && typeof asked.redirectResponseUrl !== 'string') {
    return new OrderRejection(
      'authentication.redirectResponseUrl',
      "Field 'authentication.redirectResponseUrl' is required when the payer's browser is authenticated",
      'MISSING',
    );
  }
  if (request.card !== undefined && !isSameCard(tx.sourceOfFunds?.provided?.card, request.card)) {
    return new OrderRejection(
      'sourceOfFunds.provided.card.number',
      'Value is invalid. It is not the card of the INITIATE_AUTHENTICATION',
    );
  }
  return undefined;
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
  const tx = state.kind === 'Order' ? state.transactions.find((t) => t.id === cited) : undefined;
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
  if (request.authenticationTransactionId === undefined || state.kind !== 'Order') return undefined;
  return state.transactions.find((t) => t.id === request.authenticationTransactionId);
}

/** The new AUTHENTICATION transaction: what the lookup found, no money. */
export function authenticationInitiated(
  command: InitiateAuthentication & { readonly outcome: AuthenticationLookup },
  base: Omit<TransactionRecord, 'type' | 'amount'>,
): OrderEvent {
  const { outcome } = command;
  const authentication: AuthenticationRecord = {
    status: outcome.status,
    version: outcome.version,
    // Without authentication the merchant may still pay, without its liability shift.
    gatewayRecommendation: 'PROCEED',
    ...(outcome.acsReference !== undefined ? { acsReference: outcome.acsReference } : {}),
    ...(command.sessionId !== undefined ? { sessionId: command.sessionId } : {}),
    request: command.authentication,
  };
  return {
    type: 'AuthenticationInitiated',
    data: {
      ...base,
      type: 'AUTHENTICATION',
      amount: 0,
      gatewayCode: 'APPROVED',
      sourceOfFunds: command.sourceOfFunds,
      authentication,
    },
  };
}

/** AUTHENTICATE_PAYER (frictionless result or challenge) and the challenge's result. */
export function decideAuthenticationStep(
  command:
    | (AuthenticatePayer & { readonly outcome: PayerAuthenticationAnswer })
    | (CompleteChallenge & { readonly outcome: ChallengeAnswer }),
  order: Order,
): OrderEvent[] {
  const tx = order.transactions.find((t) => t.id === command.transactionId) as TransactionState;
  const before = tx.authentication as AuthenticationRecord;
  if (command.type === 'CompleteChallenge') {
    const { result, encryptedData } = command.outcome;
    return [
      {
        type: 'PayerAuthenticated',
        data: {
          transactionId: tx.id,
          time: command.now,
          gatewayCode: gatewayCodeOf(result),
          authentication: {
            ...before,
            ...completed(result),
            ...(encryptedData ? { encryptedData } : {}),
          },
        },
      },
    ];
  }
  const sessionId = command.sessionId ?? before.sessionId;
  const step: Omit<TransactionRevision, 'gatewayCode' | 'authentication'> = {
    transactionId: tx.id,
    time: command.now,
    requestHash: command.requestHash,
    apiVersion: command.apiVersion,
    amount: command.amount,
    echo: command.echo,
  };
  const request = { ...before.request, ...command.authentication };
  const { outcome } = command;
  if (outcome.kind === 'challenge') {
    return [
      {
        type: 'PayerAuthenticationStarted',
        data: {
          ...step,
          gatewayCode: 'PENDING',
          authentication: {
            ...before,
            ...(sessionId !== undefined ? { sessionId } : {}),
            request,
            status: 'AUTHENTICATION_PENDING',
            payerInteraction: 'REQUIRED',
            challenge: outcome.challenge,
          },
        },
      },
    ];
  }
  return [
    {
      type: 'PayerAuthenticated',
      data: {
        ...step,
        gatewayCode: gatewayCodeOf(outcome.result),
        authentication: {
          ...before,
          ...(sessionId !== undefined ? { sessionId } : {}),
          request,
          payerInteraction: 'NOT_REQUIRED',
          ...completed(outcome.result),
          ...(outcome.encryptedData ? { encryptedData: outcome.encryptedData } : {}),
        },
      },
    },
  ];
}

function completed(
  result: ThreeDsResult,
): Pick<AuthenticationRecord, 'status' | 'result' | 'gatewayRecommendation'> {
  return {
    status: result.status,
    result,
    gatewayRecommendation: forbidsPayment(result.status) ? 'DO_NOT_PROCEED' : 'PROCEED',
  };
}

/** A cancelled challenge is ABORTED; a failed or rejected authentication DECLINED. */
function gatewayCodeOf(result: ThreeDsResult): GatewayCode {
  if (result.challengeCancelled) return 'ABORTED';
  return forbidsPayment(result.status) ? 'DECLINED' : 'APPROVED';
}
