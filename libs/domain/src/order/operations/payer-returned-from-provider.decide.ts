import {
  acceptedBrowserPayment,
  completedAt,
  browserPaymentStepRejection,
  notNow,
} from '../browser-payment.decide';
import { awaitsConfirmation, type BrowserPaymentRecord } from '../browser-payment.types';
import type { OrderEvent } from '../order.events';
import type { ContinuesTransaction } from './operation-decider';

/**
 * The payer came back from the provider: the payment completes with the provider's answer,
 * or waits for CONFIRM_BROWSER_PAYMENT under CONFIRM_AT_MERCHANT.
 */
export const payerReturnedFromProviderDecider: ContinuesTransaction<'PAYER_RETURNED_FROM_PROVIDER'> =
  {
    opens: 'step',
    rejection: (request, state) =>
      browserPaymentStepRejection(request, state, ({ record: { interaction } }) =>
        interaction.status === 'REDIRECTED_TO_PROVIDER'
          ? undefined
          : notNow(`the payer is not at the provider (${interaction.status})`),
      ),
    decide(command, order) {
      const { tx, record } = acceptedBrowserPayment(order, command.transactionId);
      const now = command.now;
      const step = { transactionId: tx.id, time: now };
      const returned: BrowserPaymentRecord = {
        ...record,
        payerDecision: command.decision,
        interaction: { ...record.interaction, status: 'RETURNED_TO_MERCHANT', timeReturned: now },
      };
      const events: OrderEvent[] = [
        {
          type: 'BrowserPaymentReturned',
          data: { ...step, gatewayCode: 'PENDING', browserPayment: returned },
        },
      ];
      if (awaitsConfirmation(returned)) return events;
      return [
        ...events,
        {
          type: 'BrowserPaymentCompleted',
          data: {
            ...step,
            gatewayCode: command.outcome.gatewayCode,
            processor: command.outcome.details,
            browserPayment: completedAt(returned, now),
          },
        },
      ];
    },
  };
