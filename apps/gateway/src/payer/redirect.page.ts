import { autoPostForm, html } from '@gateway/order-view';
import { payerPage } from './payer-page.layout';

/** After the challenge: the payer's browser posts the result to the merchant's redirectResponseUrl. */
export function renderRedirectToMerchant(
  action: string,
  fields: Readonly<Record<string, string>>,
): string {
  return payerPage({
    title: 'Returning to the shop',
    brand: 'Card issuer · 3-D Secure',
    accent: '#1d4ed8',
    body: html`<h1>Returning to the shop…</h1>
      ${autoPostForm('redirectToMerchantForm', action, fields, 'Return to the shop')}`,
  });
}
