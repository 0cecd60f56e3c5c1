import { completed, gatewayCodeOf, initiatedAuthentication } from '../authentication.decide';
import type { AuthenticationRecord } from '../authentication.types';
import type { AuthenticatePayer } from '../authentication.commands';
import type { TransactionRevision } from '../order.events';
import { OrderRejection } from '../order.rejection';
import { findTransaction, type OrderState } from '../order.state';
import { isSameCard } from '../order.types';
import type { ContinuesTransaction } from './operation-decider';

/**
 * AUTHENTICATE_PAYER continues the authentication only while it is available and not yet
 * attempted, for the card initiated.
 */
function authenticatePayerRejection(
  request: AuthenticatePayer,
  state: OrderState,
): OrderRejection | undefined {
  const tx = initiatedAuthentication(request, state);
  if (tx instanceof OrderRejection) return tx;
  const { status } = tx.authentication;
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
  const asked = { ...tx.authentication.request, ...request.authentication };
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

/** AUTHENTICATE_PAYER: a frictionless result at once, or a challenge for the payer. */
export const authenticatePayerDecider: ContinuesTransaction<'AUTHENTICATE_PAYER'> = {
  opens: 'step',
  rejection: authenticatePayerRejection,
  decide(command, order) {
    const tx = findTransaction(order, command.transactionId)!;
    const before = tx.authentication as AuthenticationRecord;
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
  },
};
