import {
  paymentForbiddenByAuthentication,
  proofFor,
  proofRejection,
  threeDSecureIdRejection,
} from '../authentication.decide';
import { forbidsPayment } from '../authentication.types';
import type { Authorize, Pay } from '../order.commands';
import type { TransactionRecord } from '../order.events';
import type { OrderRejection } from '../order.rejection';
import type { OrderState } from '../order.state';
import type { ProcessorOutcome } from '../order.types';
import type { CommandOf, TransactionCommon } from './operation-decider';
import { approvedOf, processedRecord } from './processed';
import { openOrderRejection } from './rejections';

/**
 * AUTHORIZE and PAY: an order open to a new payment, a valid proof when one is cited, and a
 * 3-D Secure record of the order when a 3DSecureId names one.
 */
export function paymentRejection(
  request: Authorize | Pay,
  state: OrderState,
): OrderRejection | undefined {
  return (
    openOrderRejection(request, state) ??
    proofRejection(request, state) ??
    threeDSecureIdRejection(request, state)
  );
}

/** The issuer asked not to proceed (behaviour notes, 3-D Secure flow): the acquirer is not asked. */
export function refusedByAuthentication<R extends Authorize | Pay>(
  request: R,
  state: OrderState,
): (R & { readonly outcome: ProcessorOutcome }) | undefined {
  if (!paymentForbiddenByAuthentication(request, state)) return undefined;
  const outcome: ProcessorOutcome = {
    gatewayCode: 'AUTHENTICATION_FAILED',
    approvedAmount: 0,
    details: {},
  };
  return { ...request, outcome };
}

/** AUTHORIZE and PAY as recorded: the amount approved, the card or account, the proof cited. */
export function paymentRecord(
  command: CommandOf<'AUTHORIZE' | 'PAY'>,
  state: OrderState,
  common: TransactionCommon,
  type: 'AUTHORIZATION' | 'PAYMENT',
): TransactionRecord {
  const proof = proofFor(command, state);
  return processedRecord(command, common, type, {
    ...approvedOf(command, command.amount),
    sourceOfFunds: command.sourceOfFunds,
    ...(proof ? { proof } : {}),
    // The issuer asked not to proceed (behaviour notes, 3-D Secure flow): never approved, whatever
    // the command carries. Read from the proof: the cited authentication is looked up once.
    ...(proof && forbidsPayment(proof.status)
      ? { gatewayCode: 'AUTHENTICATION_FAILED' as const, amount: command.amount }
      : {}),
  });
}
