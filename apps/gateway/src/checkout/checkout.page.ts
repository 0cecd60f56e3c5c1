import { parseAmount } from '@gateway/domain';
import { html, Html } from '@gateway/order-view';
import { formatAmount, payerPage } from '../payer/payer-page.layout';
import type { CardInput, CardRefusal } from './checkout-request';
import type { CheckoutTerms } from './checkout-terms';

/** How the merchant's page shows the payment page (checkout.min.js): the page itself, or framed. */
export type CheckoutMode = 'page' | 'embedded' | 'lightbox';
export const CHECKOUT_MODES: readonly CheckoutMode[] = ['page', 'embedded', 'lightbox'];

const ACCENT = '#0f3d63';

/** The inputs, their labels and what browsers and keyboards need to help (no script). */
const INPUTS: readonly { input: CardInput; label: string; autocomplete: string; size: number }[] = [
  { input: 'number', label: 'Card number', autocomplete: 'cc-number', size: 23 },
  { input: 'expiryMonth', label: 'Expiry month (MM)', autocomplete: 'cc-exp-month', size: 2 },
  { input: 'expiryYear', label: 'Expiry year (YY)', autocomplete: 'cc-exp-year', size: 2 },
  { input: 'securityCode', label: 'Security code', autocomplete: 'cc-csc', size: 4 },
  { input: 'firstName', label: 'Cardholder first name', autocomplete: 'cc-given-name', size: 50 },
  { input: 'lastName', label: 'Cardholder last name', autocomplete: 'cc-family-name', size: 50 },
];
const NUMERIC: ReadonlySet<CardInput> = new Set([
  'number',
  'expiryMonth',
  'expiryYear',
  'securityCode',
]);

/** The amount as the payer reads it. */
export const amountOf = (terms: CheckoutTerms): string =>
  formatAmount(parseAmount(terms.order.amount) ?? 0, terms.order.currency);

/**
 * The payment page: what is paid, to whom, the card form, and Cancel. Its form carries the signed
 * token of the next attempt; an error from the last one is announced (role=alert) and its input
 * marked. No script: the inputs' attributes give the format help. Nothing typed is echoed back
 * but the holder's name.
 */
export function renderCheckoutPage(options: {
  terms: CheckoutTerms;
  action: string;
  token: string;
  mode: CheckoutMode;
  error?: CardRefusal;
  holder?: { firstName?: string; lastName?: string };
}): string {
  const { terms, error } = options;
  const verb = terms.operation === 'PURCHASE' ? 'Pay' : 'Continue';
  const hidden = html`<input type="hidden" name="token" value="${options.token}" />
    <input type="hidden" name="mode" value="${options.mode}" />`;
  return payerPage({
    title: `Pay ${terms.merchantName}`,
    brand: `${terms.merchantName} · Secure payment`,
    accent: ACCENT,
    body: html`<style>
        label {
          display: block;
          font-weight: 600;
          margin: 0.75rem 0 0.25rem;
        }
        input {
          font: inherit;
          padding: 0.45rem 0.6rem;
          border: 1px solid #6b7280;
          border-radius: 0.4rem;
          width: 100%;
        }
        input:focus-visible {
          outline: 3px solid #f59e0b;
          outline-offset: 1px;
        }
        input[aria-invalid='true'] {
          border: 2px solid #b91c1c;
        }
        .error {
          background: #fef2f2;
          border: 1px solid #b91c1c;
          color: #7f1d1d;
          padding: 0.6rem 0.8rem;
          border-radius: 0.4rem;
          margin: 0 0 1rem;
        }
        .actions {
          margin-top: 1.25rem;
        }
        .save {
          display: flex;
          gap: 0.5rem;
          align-items: center;
          margin: 1rem 0 0;
        }
        .save input,
        .save label {
          width: auto;
          margin: 0;
        }
      </style>
      <h1>Pay ${terms.merchantName}</h1>
      <dl aria-label="Payment details">
        <dt>Merchant</dt>
        <dd>${terms.merchantName}</dd>
        <dt>Amount</dt>
        <dd id="amount">${amountOf(terms)}</dd>
        ${
          terms.order.description
            ? html`<dt>For</dt>
                <dd>${terms.order.description}</dd>`
            : ''
        }
        <dt>Order</dt>
        <dd>${terms.order.id}</dd>
      </dl>
      ${error ? html`<div class="error" role="alert" id="error">${error.message}</div>` : ''}
      <form method="POST" action="${options.action}" novalidate>
        ${hidden} ${INPUTS.map((field) => inputOf(field, error, options.holder))}
        ${
          terms.offersSaveCard
            ? html`<p class="save">
                <input type="checkbox" id="saveCard" name="saveCard" value="yes" />
                <label for="saveCard"
                  >Save my card with ${terms.merchantName} for later payments</label
                >
              </p>`
            : ''
        }
        <div class="actions">
          <button class="primary" type="submit">${verb} ${amountOf(terms)}</button>
        </div>
      </form>
      <form method="POST" action="${options.action}/cancel">
        ${hidden}
        <div class="actions">
          <button type="submit">Cancel and return to ${terms.merchantName}</button>
        </div>
      </form>`,
  });
}

function inputOf(
  field: (typeof INPUTS)[number],
  error: CardRefusal | undefined,
  holder: { firstName?: string; lastName?: string } = {},
): Html {
  const invalid = error?.input === field.input;
  const numeric = NUMERIC.has(field.input);
  const value =
    field.input === 'firstName' || field.input === 'lastName' ? holder[field.input] : '';
  return html`<label for="${field.input}">${field.label}</label>
    <input
      id="${field.input}"
      name="${field.input}"
      autocomplete="${field.autocomplete}"
      maxlength="${field.size}"
      ${numeric ? html`inputmode="numeric" pattern="[0-9 -]*"` : ''}
      ${field.input === 'securityCode' ? '' : html`required`}
      value="${value ?? ''}"
      ${invalid ? html`aria-invalid="true" aria-describedby="error"` : ''}
    />`;
}

/**
 * A framed page's end: it tells the merchant's page (checkout.min.js) by postMessage, to the
 * merchant's origin only, and offers a link for a browser that runs no script.
 */
export function renderFramedResult(result: {
  terms: CheckoutTerms;
  kind: 'complete' | 'cancel';
  redirect: string;
  origin: string;
  resultIndicator?: string;
  sessionVersion?: string;
}): string {
  const { terms } = result;
  const title = result.kind === 'complete' ? 'Payment complete' : 'Payment cancelled';
  return payerPage({
    title,
    brand: `${terms.merchantName} · Secure payment`,
    accent: ACCENT,
    body: html`<h1>${title}</h1>
      <div
        id="checkout-result"
        data-kind="${result.kind}"
        data-origin="${result.origin}"
        data-redirect="${result.redirect}"
        data-result-indicator="${result.resultIndicator ?? ''}"
        data-session-version="${result.sessionVersion ?? ''}"
      ></div>
      <p><a href="${result.redirect}" target="_top">Return to ${terms.merchantName}</a></p>
      <script>
        var d = document.getElementById('checkout-result').dataset;
        parent.postMessage(
          {
            checkout: d.kind,
            resultIndicator: d.resultIndicator,
            sessionVersion: d.sessionVersion,
            redirect: d.redirect,
          },
          d.origin,
        );
      </script>`,
  });
}

/** On to the issuer's challenge: the redirectHtml AUTHENTICATE_PAYER answered, auto-posting. */
export function renderChallengeRedirect(redirectHtml: string): string {
  return payerPage({
    title: 'Continue to your card issuer',
    brand: 'Secure payment · 3-D Secure',
    accent: ACCENT,
    body: html`<h1>Continue to your card issuer</h1>
      ${new Html(redirectHtml)}`,
  });
}
