import type { RedirectToProvider } from '@gateway/domain';
import type { Parsed, PayerStepSlice } from '../slice';

/** The payer opened the provider's page; nobody else is asked. */
export const payerRedirectedToProvider: PayerStepSlice<
  { readonly kind: 'redirect' },
  Parsed<RedirectToProvider>
> = {
  apiOperation: 'PAYER_REDIRECTED_TO_PROVIDER',
  parse: (_step, ids) => ({ request: { ...ids, type: 'PAYER_REDIRECTED_TO_PROVIDER' } }),
  ask: ({ request }) => request,
};
