import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { merchantClient, type RunningGateway } from './gateway-process';
import { startHttpsSite } from './self-signed-certificate';
import { card, decryptEncryptedData } from './three-d-secure';

/**
 * A small merchant web site for the browser suite, served over HTTPS with a certificate made for
 * this run (redirectResponseUrl and returnUrl must be https). Its server side calls the gateway
 * with the merchant's Basic credentials; its pages run the 3-D Secure and browser payment flows
 * the way a shop's checkout would.
 */
export interface MerchantSite {
  readonly url: string;
  close(): Promise<void>;
}

type Json = Record<string, any>;

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, after = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fafaf9;color:#1c1917}
header{background:#1c1917;color:#fff;padding:.75rem 1.5rem;font-weight:700}
main{max-width:34rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:.75rem;box-shadow:0 1px 3px #0003}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{color:#57534e}dd{margin:0;font-weight:600}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.5rem;border:0;background:#b45309;color:#fff;cursor:pointer}</style>
</head><body><header>Example Shop</header><main>${body}</main>${after}</body></html>`;
}

async function formOf(request: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return Object.fromEntries(new URLSearchParams(text));
}

/**
 * Order ids without long digit runs: they travel in returnUrl, where the gateway refuses anything
 * that could be a card number.
 */
const orderId = (flow: string) => `shop-${flow}-${randomUUID().replace(/\d/g, 'x').slice(0, 24)}`;

export async function startMerchantSite(gateway: RunningGateway): Promise<MerchantSite> {
  const api = merchantClient(gateway);
  /** What the shop remembers per order: the session key that decrypts encryptedData. */
  const sessions = new Map<string, { aes256Key: string; cardNumber: string }>();
  let base = '';

  const threeDsCheckout = async (url: URL, request: IncomingMessage): Promise<string> => {
    const number = url.searchParams.get('card') ?? '5123450000000008';
    const order = orderId('3ds');
    const created = await api.post('/session');
    const { id, aes256Key } = created.body.session;
    await api.put(`/session/${id}`, { sourceOfFunds: { provided: { card: card(number) } } });
    sessions.set(order, { aes256Key, cardNumber: number });
    await api.put(`/order/${order}/transaction/auth-1`, {
      apiOperation: 'INITIATE_AUTHENTICATION',
      authentication: { acceptVersions: '3DS2', channel: 'PAYER_BROWSER' },
      order: { currency: 'USD' },
      session: { id },
    });
    const payer = await api.put(`/order/${order}/transaction/auth-1`, {
      apiOperation: 'AUTHENTICATE_PAYER',
      authentication: { redirectResponseUrl: `${base}/3ds-return` },
      device: { browser: request.headers['user-agent'] ?? 'unknown' },
      order: { amount: '250.00', currency: 'USD' },
      session: { id },
    });
    // The spec's SIMPLE model: the HTML goes into an empty DIV, the last element of the BODY.
    return page(
      'Checkout',
      `<h1>Checkout</h1><p>Order <strong id="order">${escape(order)}</strong>: USD 250.00</p>
<p>Your card issuer may ask you to confirm the payment.</p>
<script id="redirect-html" type="application/json">${JSON.stringify(payer.body.authentication.redirectHtml).replace(/</g, '\\u003c')}</script>
<script>
  const html = JSON.parse(document.getElementById('redirect-html').textContent);
  addEventListener('DOMContentLoaded', () => document.getElementById('threeds').append(document.createRange().createContextualFragment(html)));
</script>`,
      '<div id="threeds"></div>',
    );
  };

  const threeDsReturn = async (request: IncomingMessage): Promise<string> => {
    const form = await formOf(request);
    const order = form['order.id'];
    const remembered = sessions.get(order);
    if (!remembered) return page('Unknown order', '<h1>Unknown order</h1>');
    const proof = decryptEncryptedData(remembered.aes256Key, {
      ciphertext: form['encryptedData.ciphertext'],
      nonce: form['encryptedData.nonce'],
      tag: form['encryptedData.tag'],
    });
    const authorized = await api.put(`/order/${order}/transaction/pay-1`, {
      apiOperation: 'AUTHORIZE',
      order: { amount: '250.00', currency: 'USD' },
      sourceOfFunds: { provided: { card: card(remembered.cardNumber) } },
      authentication: { transactionId: form['transaction.id'] },
    });
    const body: Json = authorized.body;
    const approved = body.result === 'SUCCESS';
    return page(
      approved ? 'Payment approved' : 'Payment not approved',
      `<h1 id="outcome">${approved ? 'Payment approved' : 'Payment not approved'}</h1><dl>
<dt>Order</dt><dd>${escape(order)}</dd>
<dt>3-D Secure</dt><dd id="authentication-status">${escape(proof.transaction.authenticationStatus)}</dd>
<dt>Recommendation</dt><dd id="recommendation">${escape(form['response.gatewayRecommendation'])}</dd>
<dt>Authorization</dt><dd id="gateway-code">${escape(body.response.gatewayCode)}</dd>
<dt>Order status</dt><dd id="order-status">${escape(body.order.status)}</dd></dl>`,
    );
  };

  const browserCheckout = (url: URL): string => {
    const provider = url.searchParams.get('provider') ?? 'PROVIDER_A';
    const confirmation = url.searchParams.get('confirmation') ?? 'CONFIRM_AT_PROVIDER';
    return page(
      'Checkout',
      `<h1>Checkout</h1><p>EUR 80.00</p>
<form method="POST" action="/browser-pay">
<input type="hidden" name="provider" value="${escape(provider)}">
<input type="hidden" name="confirmation" value="${escape(confirmation)}">
<button type="submit">Pay with ${escape(provider)}</button></form>`,
    );
  };

  const browserPay = async (request: IncomingMessage, response: ServerResponse) => {
    const form = await formOf(request);
    const order = orderId('bp');
    const initiated = await api.put(`/order/${order}/transaction/bp-1`, {
      apiOperation: 'INITIATE_BROWSER_PAYMENT',
      browserPayment: {
        operation: 'PAY',
        returnUrl: `${base}/return?order=${encodeURIComponent(order)}`,
        ...(form.provider === 'PROVIDER_A'
          ? { providerA: { paymentConfirmation: form.confirmation } }
          : {}),
      },
      order: { amount: '80.00', currency: 'EUR' },
      sourceOfFunds: {
        type: form.provider,
        ...(form.provider === 'PROVIDER_A'
          ? { provided: { providerA: { accountEmail: 'payer@example.com' } } }
          : {}),
      },
    });
    if (initiated.status !== 201) throw new Error(`INITIATE_BROWSER_PAYMENT: ${initiated.text}`);
    response.writeHead(303, { location: initiated.body.browserPayment.redirectUrl }).end();
  };

  const browserReturn = async (url: URL): Promise<string> => {
    const order = url.searchParams.get('order') ?? '';
    const retrieved = (await api.get(`/order/${encodeURIComponent(order)}/transaction/bp-1`)).body;
    const interaction = retrieved.browserPayment.interaction.status;
    if (interaction === 'RETURNED_TO_MERCHANT') {
      return page(
        'Confirm your order',
        `<h1 id="outcome">Confirm your order</h1><p>The provider approved EUR 80.00.</p>
<form method="POST" action="/confirm?order=${encodeURIComponent(order)}"><button type="submit">Confirm order</button></form>`,
      );
    }
    return outcomePage(order, retrieved);
  };

  const confirm = async (url: URL): Promise<string> => {
    const order = url.searchParams.get('order') ?? '';
    const confirmed = await api.put(`/order/${encodeURIComponent(order)}/transaction/bp-1`, {
      apiOperation: 'CONFIRM_BROWSER_PAYMENT',
      order: { amount: '80.00', currency: 'EUR' },
    });
    return outcomePage(order, confirmed.body);
  };

  const outcomePage = (order: string, tx: Json): string => {
    const titles: Json = {
      APPROVED: 'Payment complete',
      DECLINED: 'Payment declined',
      ABORTED: 'Payment cancelled',
    };
    const title = titles[tx.response.gatewayCode] ?? 'Payment pending';
    return page(
      title,
      `<h1 id="outcome">${escape(title)}</h1><dl>
<dt>Order</dt><dd>${escape(order)}</dd>
<dt>Provider answer</dt><dd id="gateway-code">${escape(tx.response.gatewayCode)}</dd>
<dt>Interaction</dt><dd id="interaction">${escape(tx.browserPayment.interaction.status)}</dd>
<dt>Order status</dt><dd id="order-status">${escape(tx.order.status)}</dd></dl>`,
    );
  };

  return startHttpsSite((request, response, at) => {
    base = at;
    const url = new URL(request.url ?? '/', base);
    const html = (text: string) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(text);
    const route = `${request.method} ${url.pathname}`;
    const handled: Promise<unknown> =
      route === 'GET /checkout/3ds'
        ? threeDsCheckout(url, request).then(html)
        : route === 'POST /3ds-return'
          ? threeDsReturn(request).then(html)
          : route === 'GET /checkout/browser'
            ? Promise.resolve(html(browserCheckout(url)))
            : route === 'POST /browser-pay'
              ? browserPay(request, response)
              : route === 'GET /return'
                ? browserReturn(url).then(html)
                : route === 'POST /confirm'
                  ? confirm(url).then(html)
                  : Promise.resolve(response.writeHead(404).end());
    handled.catch((error: Error) => response.writeHead(500).end(error.message));
  });
}
