import type { BrowserPaymentProvider, Order, TransactionState } from '@gateway/domain';
import { html, type Html } from '@gateway/order-view';
import { formatAmount, payerPage } from './payer-page.layout';

const LOOK: Readonly<Record<BrowserPaymentProvider, { name: string; accent: string }>> = {
  PROVIDER_A: { name: 'Provider A · Wallet', accent: '#0f766e' },
  PROVIDER_B: { name: 'Provider B · Bank transfer', accent: '#7c2d12' },
  PROVIDER_C: { name: 'Provider C · Bank transfer', accent: '#4338ca' },
  PROVIDER_D: { name: 'Provider D · Bank payment', accent: '#9d174d' },
  PROVIDER_E: { name: 'Provider E · Online payment', accent: '#166534' },
};

type Json = Record<string, unknown>;

/**
 * A simulated browser payment provider's page: the payment, the provider-specific details the
 * merchant sent (echoed so a tester sees they arrived), and approve, decline and cancel.
 */
export function renderProviderPage(order: Order, tx: TransactionState, action: string): string {
  const record = tx.browserPayment!;
  const look = LOOK[record.provider];
  const verb = record.operation === 'PAY' ? 'Pay' : 'Authorize';
  return payerPage({
    title: `${verb} ${formatAmount(tx.amount, tx.currency)} with ${look.name}`,
    brand: look.name,
    accent: look.accent,
    body: html`<h1>Approve this payment</h1>
      <dl aria-label="Payment details">
        <dt>Merchant</dt>
        <dd>${order.merchantId}</dd>
        <dt>Amount</dt>
        <dd>${formatAmount(tx.amount, tx.currency)}</dd>
        <dt>Order</dt>
        <dd>${order.orderId}</dd>
        ${providerDetails(tx)}
      </dl>
      ${
        record.paymentConfirmation === 'CONFIRM_AT_MERCHANT'
          ? html`<p class="note">The shop confirms the payment after you return.</p>`
          : ''
      }
      <form method="POST" action="${action}">
        <fieldset style="border: 0; padding: 0; margin: 0">
          <legend class="note">This is a test provider: choose the outcome.</legend>
          <div class="actions">
            <button class="primary" type="submit" name="decision" value="APPROVED">Approve</button>
            <button type="submit" name="decision" value="DECLINED">Decline</button>
            <button type="submit" name="decision" value="CANCELLED">
              Cancel and return to the shop
            </button>
          </div>
        </fieldset>
      </form>`,
  });
}

function providerDetails(tx: TransactionState): Html[] {
  const record = tx.browserPayment!;
  const provided = (tx.sourceOfFunds?.provided ?? {}) as Json;
  const rows: [string, unknown][] = [];
  const providerA = provided.providerA as Json | undefined;
  if (providerA?.accountEmail) rows.push(['Account', providerA.accountEmail]);
  if (providerA?.accountHolder) rows.push(['Account holder', providerA.accountHolder]);
  const options = record.options ?? {};
  if (record.provider === 'PROVIDER_A') {
    rows.push(['Shipping address', options.displayShippingAddress === false ? 'Hidden' : 'Shown']);
    rows.push([
      'Change shipping address',
      options.overrideShippingAddress === false ? 'Not allowed' : 'Allowed',
    ]);
  }
  const providerB = provided.providerB as Json | undefined;
  if (providerB?.bankIdentifier) rows.push(['Bank identifier', providerB.bankIdentifier]);
  const providerC = provided.providerC as Json | undefined;
  if (providerC?.bankAccountHolder) rows.push(['Account holder', providerC.bankAccountHolder]);
  if (providerC?.iban) rows.push(['IBAN', providerC.iban]);
  const providerD = record.providerD ?? {};
  if (providerD.merchantPaymentReference)
    rows.push(['Payment reference', providerD.merchantPaymentReference]);
  if (providerD.paymentDueDate) rows.push(['Due date', providerD.paymentDueDate]);
  if (providerD.paymentReason) rows.push(['Reason', providerD.paymentReason]);
  return rows.map(
    ([term, value]) =>
      html`<dt>${term}</dt>
        <dd>${String(value)}</dd>`,
  );
}
