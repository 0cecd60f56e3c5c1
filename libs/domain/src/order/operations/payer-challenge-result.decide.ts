import { completed, gatewayCodeOf, initiatedAuthentication } from '../authentication.decide';
import { OrderRejection } from '../order.rejection';
import { findTransaction } from '../order.state';
import type { ContinuesTransaction } from './operation-decider';

/** The payer's answer on the ACS challenge page: completes only a pending challenge. */
export const payerChallengeResultDecider: ContinuesTransaction<'PAYER_CHALLENGE_RESULT'> = {
  opens: 'step',
  rejection(request, state) {
    const tx = initiatedAuthentication(request, state);
    if (tx instanceof OrderRejection) return tx;
    const { status } = tx.authentication;
    return status === 'AUTHENTICATION_PENDING'
      ? undefined
      : new OrderRejection('transaction.id', `The challenge is no longer pending (${status})`);
  },
  decide(command, order) {
    const tx = findTransaction(order, command.transactionId)!;
    const { result, encryptedData } = command.outcome;
    return [
      {
        type: 'PayerAuthenticated',
        data: {
          transactionId: tx.id,
          time: command.now,
          gatewayCode: gatewayCodeOf(result),
          authentication: {
            ...tx.authentication!,
            ...completed(result),
            ...(encryptedData ? { encryptedData } : {}),
          },
        },
      },
    ];
  },
};
