import { toDecimal } from '../money';
import type {
  BrowserPaymentStart,
  ConfirmBrowserPayment,
  InitiateBrowserPayment,
  RedirectToProvider,
  ReturnFromProvider,
} from './browser-payment.commands';
import { awaitsConfirmation, type BrowserPaymentRecord } from './browser-payment.types';
import type { OrderEvent, TransactionRecord } from './order.events';
import { OrderRejection } from './order.rejection';
import type { Order, OrderState, TransactionState } from './order.state';
import type { ProcessorOutcome } from './order.types';

type BrowserPaymentStep = RedirectToProvider | ReturnFromProvider | ConfirmBrowserPayment;

/**
 * The payer's steps follow the interaction's order, INITIATED → REDIRECTED_TO_PROVIDER →
 * RETURNED_TO_MERCHANT → COMPLETED; CONFIRM_BROWSER_PAYMENT continues (same ids) only a payment
 * the payer approved under CONFIRM_AT_MERCHANT (spec, rule 3).
 */
export function browserPaymentStepRejection(
  request: BrowserPaymentStep,
  state: OrderState,
): OrderRejection | undefined {
  if (state.kind === 'NoOrder')
    return new OrderRejection('order.id', `Order '${request.orderId}' does not exist`);
  const record = state.transactions.find((t) => t.id === request.transactionId)?.browserPayment;
  if (!record) {
    return new OrderRejection(
      'transaction.id',
      `No INITIATE_BROWSER_PAYMENT with transaction id '${request.transactionId}' on order '${request.orderId}'`,
    );
  }
  const status = record.interaction.status;
  switch (request.type) {
    case 'RedirectToProvider':
      return status === 'INITIATED' ? undefined : notNow(`the payer was already sent (${status})`);
    case 'ReturnFromProvider':
      return status === 'REDIRECTED_TO_PROVIDER'
        ? undefined
        : notNow(`the payer is not at the provider (${status})`);
    case 'ConfirmBrowserPayment': {
      if (!awaitsConfirmation(record))
        return notNow(
          `it does not await the merchant's confirmation (${status}, ${record.paymentConfirmation ?? 'CONFIRM_AT_PROVIDER'})`,
        );
      const tx = state.transactions.find((t) => t.id === request.transactionId) as TransactionState;
      if (request.amount !== undefined && request.amount !== tx.amount) {
        return new OrderRejection(
          'order.amount',
          `Value '${toDecimal(request.amount)}' is invalid. The browser payment is for ${toDecimal(tx.amount)}`,
        );
      }
      return undefined;
    }
    default: {
      const unexpected: never = request;
      return unexpected;
    }
  }
}

function notNow(why: string): OrderRejection {
  return new OrderRejection('transaction.id', `The browser payment cannot take this step: ${why}`);
}

/** The new AUTHORIZATION or PAYMENT, pending until the payer returns from the provider. */
export function browserPaymentInitiated(
  command: InitiateBrowserPayment & { readonly outcome: BrowserPaymentStart },
  base: Omit<TransactionRecord, 'type' | 'amount'>,
): OrderEvent {
  const browserPayment: BrowserPaymentRecord = {
    operation: command.operation,
    provider: command.provider,
    returnUrl: command.returnUrl,
    redirectUrl: command.outcome.redirectUrl,
    ...(command.paymentConfirmation ? { paymentConfirmation: command.paymentConfirmation } : {}),
    ...(command.options ? { options: command.options } : {}),
    ...(command.providerD ? { providerD: command.providerD } : {}),
    interaction: { status: 'INITIATED', timeInitiated: command.now },
  };
  return {
    type: 'BrowserPaymentInitiated',
    data: {
      ...base,
      type: command.operation === 'PAY' ? 'PAYMENT' : 'AUTHORIZATION',
      amount: command.amount,
      gatewayCode: 'PENDING',
      sourceOfFunds: command.sourceOfFunds,
      browserPayment,
    },
  };
}

export function decideBrowserPaymentStep(
  command:
    | RedirectToProvider
    | (ReturnFromProvider & { readonly outcome: ProcessorOutcome })
    | (ConfirmBrowserPayment & { readonly outcome: ProcessorOutcome }),
  order: Order,
): OrderEvent[] {
  const tx = order.transactions.find((t) => t.id === command.transactionId) as TransactionState;
  const record = tx.browserPayment as BrowserPaymentRecord;
  const now = command.now;
  const step = { transactionId: tx.id, time: now };
  switch (command.type) {
    case 'RedirectToProvider':
      return [
        {
          type: 'BrowserPaymentRedirected',
          data: {
            ...step,
            gatewayCode: 'PENDING',
            browserPayment: {
              ...record,
              interaction: {
                ...record.interaction,
                status: 'REDIRECTED_TO_PROVIDER',
                timeRedirected: now,
              },
            },
          },
        },
      ];
    case 'ReturnFromProvider': {
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
    }
    case 'ConfirmBrowserPayment':
      return [
        {
          type: 'BrowserPaymentConfirmed',
          data: {
            ...step,
            requestHash: command.requestHash,
            apiVersion: command.apiVersion,
            gatewayCode: command.outcome.gatewayCode,
            processor: command.outcome.details,
            browserPayment: completedAt(record, now),
          },
        },
      ];
    default: {
      const unexpected: never = command;
      return unexpected;
    }
  }
}

function completedAt(record: BrowserPaymentRecord, now: string): BrowserPaymentRecord {
  return {
    ...record,
    interaction: { ...record.interaction, status: 'COMPLETED', timeCompleted: now },
  };
}
