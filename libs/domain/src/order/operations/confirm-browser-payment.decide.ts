import { toDecimal } from '../../money';
import {
  acceptedBrowserPayment,
  completedAt,
  browserPaymentStepRejection,
  notNow,
} from '../browser-payment.decide';
import { awaitsConfirmation } from '../browser-payment.types';
import { OrderRejection } from '../order.rejection';
import type { ContinuesTransaction } from './operation-decider';

/**
 * CONFIRM_BROWSER_PAYMENT continues (same ids) only a payment the payer approved under
 * CONFIRM_AT_MERCHANT (spec, rule 3), for the amount initiated.
 */
export const confirmBrowserPaymentDecider: ContinuesTransaction<'CONFIRM_BROWSER_PAYMENT'> = {
  opens: 'step',
  rejection: (request, state) =>
    browserPaymentStepRejection(request, state, ({ tx, record }) => {
      if (!awaitsConfirmation(record))
        return notNow(
          `it does not await the merchant's confirmation (${record.interaction.status}, ${record.paymentConfirmation ?? 'CONFIRM_AT_PROVIDER'})`,
        );
      if (request.amount !== undefined && request.amount !== tx.amount) {
        return new OrderRejection(
          'order.amount',
          `Value '${toDecimal(request.amount)}' is invalid. The browser payment is for ${toDecimal(tx.amount)}`,
        );
      }
      return undefined;
    }),
  decide(command, order) {
    const { tx, record } = acceptedBrowserPayment(order, command.transactionId);
    return [
      {
        type: 'BrowserPaymentConfirmed',
        data: {
          transactionId: tx.id,
          time: command.now,
          requestHash: command.requestHash,
          apiVersion: command.apiVersion,
          gatewayCode: command.outcome.gatewayCode,
          processor: command.outcome.details,
          browserPayment: completedAt(record, command.now),
        },
      },
    ];
  },
};
