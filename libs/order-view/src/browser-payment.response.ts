import type { BrowserPaymentRecord } from '@gateway/domain';

type Json = Record<string, unknown>;

/** browserPayment as responses show it: the request's choices, the issued redirectUrl, the interaction. */
export function renderBrowserPayment(record: BrowserPaymentRecord): Json {
  const providerA =
    record.paymentConfirmation || record.options
      ? {
          providerA: {
            ...record.options,
            ...(record.paymentConfirmation
              ? { paymentConfirmation: record.paymentConfirmation }
              : {}),
          },
        }
      : {};
  return {
    interaction: record.interaction,
    operation: record.operation,
    ...providerA,
    redirectUrl: record.redirectUrl,
    returnUrl: record.returnUrl,
  };
}
