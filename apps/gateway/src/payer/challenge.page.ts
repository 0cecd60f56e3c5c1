import { maskCardNumber, type Order, type TransactionState } from '@gateway/domain';
import { html } from '@gateway/order-view';
import { formatAmount, payerPage } from './payer-page.layout';

/**
 * The simulated issuer's 3-D Secure challenge (the ACS page): what is being paid, to whom, and the
 * three outcomes a tester may choose. The buttons post to the result endpoint of the same token.
 */
export function renderChallengePage(
  order: Order,
  tx: TransactionState,
  resultAction: string,
): string {
  const goods = tx.authentication?.request.goodsDescription;
  // The recorded mask may be the merchant's wider one (8.4); the payer's page shows at most 6.4.
  const card = tx.sourceOfFunds?.provided?.card?.number;
  return payerPage({
    title: 'Confirm your payment with your card issuer',
    brand: 'Card issuer · 3-D Secure',
    accent: '#1d4ed8',
    body: html`<h1>Confirm your payment</h1>
      <p>Your card issuer asks you to confirm this payment.</p>
      <dl aria-label="Payment details">
        <dt>Merchant</dt>
        <dd>${order.merchantId}</dd>
        <dt>Amount</dt>
        <dd>${formatAmount(tx.amount, tx.currency)}</dd>
        <dt>Card</dt>
        <dd>${card ? maskCardNumber(card) : ''}</dd>
        ${
          typeof goods === 'string' && goods
            ? html`<dt>For</dt>
                <dd>${goods}</dd>`
            : ''
        }
        <dt>Order</dt>
        <dd>${order.orderId}</dd>
      </dl>
      <form method="POST" action="${resultAction}">
        <fieldset style="border: 0; padding: 0; margin: 0">
          <legend class="note">This is a test issuer: choose the outcome.</legend>
          <div class="actions">
            <button class="primary" type="submit" name="choice" value="success">
              Authenticate (success)
            </button>
            <button type="submit" name="choice" value="failure">Fail authentication</button>
            <button type="submit" name="choice" value="cancel">Cancel</button>
          </div>
        </fieldset>
      </form>`,
  });
}
