import { toDecimal, type Thousandths } from '@gateway/domain';
import { html, type Html } from '@gateway/order-view';

/**
 * The frame of every payer page: one self-contained document (inline CSS, no external assets,
 * no script but the auto-post), with banner, main and contentinfo landmarks.
 */
export function payerPage(options: {
  title: string;
  brand: string;
  accent: string;
  body: Html;
}): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${options.title}</title>
        <style>
          :root {
            --accent: ${options.accent};
            color-scheme: light;
          }
          * {
            box-sizing: border-box;
          }
          body {
            margin: 0;
            font:
              16px/1.5 system-ui,
              -apple-system,
              'Segoe UI',
              sans-serif;
            background: #f3f4f6;
            color: #111827;
          }
          header {
            background: var(--accent);
            color: #fff;
            padding: 0.75rem 1.5rem;
            font-weight: 700;
            letter-spacing: 0.02em;
          }
          main {
            max-width: 30rem;
            margin: 2rem auto;
            background: #fff;
            border-radius: 0.75rem;
            padding: 1.5rem 2rem;
            box-shadow: 0 1px 3px rgb(0 0 0 / 0.15);
          }
          h1 {
            font-size: 1.35rem;
            margin: 0 0 1rem;
          }
          dl {
            display: grid;
            grid-template-columns: max-content 1fr;
            gap: 0.35rem 1rem;
            margin: 0 0 1.5rem;
          }
          dt {
            color: #4b5563;
          }
          dd {
            margin: 0;
            font-weight: 600;
            overflow-wrap: anywhere;
          }
          .actions {
            display: flex;
            flex-wrap: wrap;
            gap: 0.75rem;
          }
          button {
            font: inherit;
            font-weight: 600;
            padding: 0.6rem 1.2rem;
            border-radius: 0.5rem;
            border: 2px solid var(--accent);
            cursor: pointer;
            background: #fff;
            color: var(--accent);
          }
          button.primary {
            background: var(--accent);
            color: #fff;
          }
          button:focus-visible {
            outline: 3px solid #f59e0b;
            outline-offset: 2px;
          }
          .note {
            color: #4b5563;
            font-size: 0.9rem;
          }
          footer {
            text-align: center;
            color: #6b7280;
            font-size: 0.8rem;
            padding: 1rem;
          }
        </style>
      </head>
      <body>
        <header>${options.brand}</header>
        <main>${options.body}</main>
        <footer>Simulated by the gateway for testing. No real money moves.</footer>
      </body>
    </html>`.value;
}

/** "USD 250.00": the amount in the currency's own decimals, never through floating-point rounding of thousandths. */
export function formatAmount(amount: Thousandths, currency: string): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // An unknown currency code keeps two decimals.
  }
  const exact = toDecimal(amount);
  return `${currency} ${exact.toFixed(Math.max(digits, decimalsOf(exact)))}`;
}

function decimalsOf(value: number): number {
  const fraction = String(value).split('.')[1];
  return fraction ? fraction.length : 0;
}

/** A page that says why the payer cannot go on: an unknown link, or a step already taken. */
export function problemPage(title: string, message: string): string {
  return payerPage({
    title,
    brand: 'Payment',
    accent: '#374151',
    body: html`<h1>${title}</h1>
      <p>${message}</p>
      <p class="note">Return to the shop and start the payment again.</p>`,
  });
}
