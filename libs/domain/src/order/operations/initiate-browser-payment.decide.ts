import type { BrowserPaymentRecord } from '../browser-payment.types';
import type { OpensTransaction } from './operation-decider';
import { openOrderRejection } from './rejections';

/** INITIATE_BROWSER_PAYMENT: an AUTHORIZATION or PAYMENT, pending until the payer returns from the provider. */
export const initiateBrowserPaymentDecider: OpensTransaction<'INITIATE_BROWSER_PAYMENT'> = {
  opens: 'transaction',
  rejection: openOrderRejection,
  event(command, _state, common) {
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
        ...common,
        gatewayCode: 'PENDING',
        processor: {},
        type: command.operation === 'PAY' ? 'PAYMENT' : 'AUTHORIZATION',
        amount: command.amount,
        sourceOfFunds: command.sourceOfFunds,
        browserPayment,
      },
    };
  },
};
