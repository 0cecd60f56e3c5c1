import {
  acceptedBrowserPayment,
  browserPaymentStepRejection,
  notNow,
} from '../browser-payment.decide';
import type { ContinuesTransaction } from './operation-decider';

/** The payer opened the provider's page: once, from INITIATED. */
export const payerRedirectedToProviderDecider: ContinuesTransaction<'PAYER_REDIRECTED_TO_PROVIDER'> =
  {
    opens: 'step',
    rejection: (request, state) =>
      browserPaymentStepRejection(request, state, ({ record: { interaction } }) =>
        interaction.status === 'INITIATED'
          ? undefined
          : notNow(`the payer was already sent (${interaction.status})`),
      ),
    decide(command, order) {
      const { tx, record } = acceptedBrowserPayment(order, command.transactionId);
      return [
        {
          type: 'BrowserPaymentRedirected',
          data: {
            transactionId: tx.id,
            time: command.now,
            gatewayCode: 'PENDING',
            browserPayment: {
              ...record,
              interaction: {
                ...record.interaction,
                status: 'REDIRECTED_TO_PROVIDER',
                timeRedirected: command.now,
              },
            },
          },
        },
      ];
    },
  };
