import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { merchantClient, type RunningGateway } from './gateway-process';
import { startHttpsSite } from './self-signed-certificate';

/**
 * A small shop for the Hosted Checkout browser suite, over HTTPS with a certificate made for this
 * run (returnUrl must be https). Its server creates checkout sessions and keeps their
 * successIndicator; its checkout page loads checkout.min.js from the gateway with the SRI hash the
 * docs give (a wrong hash and the browser runs nothing), and its receipt page compares the
 * resultIndicator and retrieves the order.
 */
export interface CheckoutShop {
  readonly url: string;
  close(): Promise<void>;
}

type Model = 'page' | 'embedded' | 'lightbox';

/** The hash docs/hosted-checkout.md gives merchants for their script tag. */
export function documentedIntegrity(): string {
  const doc = readFileSync(join(__dirname, '../../docs/hosted-checkout.md'), 'utf8');
  const found = /integrity="(sha384-[A-Za-z0-9+/=]+)"/.exec(doc);
  if (!found) throw new Error('docs/hosted-checkout.md gives no sha384 integrity hash');
  return found[1];
}

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>${head}
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fafaf9;color:#1c1917}
header{background:#1c1917;color:#fff;padding:.75rem 1.5rem;font-weight:700}
main{max-width:40rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:.75rem}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.5rem;border:0;background:#b45309;color:#fff}</style>
</head><body><header>Mug Shop</header><main>${body}</main></body></html>`;
}

/** Order ids without digit runs (the gateway refuses what could be a card number). */
const orderId = () => `mugs-${randomUUID().replace(/\d/g, 'x').slice(0, 20)}`;

export async function startCheckoutShop(gateway: RunningGateway): Promise<CheckoutShop> {
  const api = merchantClient(gateway);
  const integrity = documentedIntegrity();
  /** What the shop's server remembers per order: the session's successIndicator. */
  const indicators = new Map<string, string>();
  /** And its session, where a saved card's token is. */
  const sessions = new Map<string, string>();
  let base = '';

  const checkout = async (url: URL): Promise<string> => {
    const model = (url.searchParams.get('model') ?? 'page') as Model;
    const callbacks = url.searchParams.get('callbacks') !== 'none';
    const order = orderId();
    const created = await api.post('/session', {
      apiOperation: 'INITIATE_CHECKOUT',
      interaction: {
        operation: url.searchParams.get('operation') ?? 'PURCHASE',
        returnUrl: `${base}/receipt?order=${order}`,
        cancelUrl: `${base}/cart?order=${order}`,
        merchant: { name: 'Mug Shop' },
        ...(url.searchParams.has('saveCard') ? { saveCard: url.searchParams.get('saveCard') } : {}),
      },
      order: { id: order, amount: '49.90', currency: 'USD', description: 'Two mugs' },
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    indicators.set(order, created.body.successIndicator);
    sessions.set(order, created.body.session.id);
    const show =
      model === 'page'
        ? 'Checkout.showPaymentPage()'
        : model === 'embedded'
          ? "Checkout.showEmbeddedPage('#payment')"
          : 'Checkout.showLightbox()';
    // The framed models' callbacks go where the shop wants; without them checkout.min.js goes to returnUrl.
    const named = callbacks ? 'data-complete="completeCallback" data-cancel="cancelCallback"' : '';
    return page(
      'Checkout',
      `<h1>Your basket</h1><p>Order <strong id="order">${escape(order)}</strong>: two mugs, USD 49.90</p>
<button id="pay" type="button">Pay with card</button><div id="payment"></div>
<script>
  function completeCallback(resultIndicator, sessionVersion) {
    location.href = '/receipt?order=${order}&by=callback&resultIndicator=' + encodeURIComponent(resultIndicator) + '&sessionVersion=' + sessionVersion;
  }
  function cancelCallback() { location.href = '/cart?order=${order}&by=callback'; }
  function errorCallback(error) { document.getElementById('payment').textContent = 'Error: ' + error.explanation; }
  Checkout.configure({ session: { id: '${created.body.session.id}' } });
  document.getElementById('pay').addEventListener('click', function () { ${show}; });
</script>`,
      `<script src="${gateway.baseUrl}/static/checkout/checkout.min.js" integrity="${integrity}" crossorigin="anonymous" ${named} data-error="errorCallback"></script>`,
    );
  };

  const receipt = async (url: URL): Promise<string> => {
    const order = url.searchParams.get('order') ?? '';
    const matches = url.searchParams.get('resultIndicator') === indicators.get(order);
    const retrieved = await api.get(`/order/${order}`);
    const session = await api.get(`/session/${sessions.get(order)}`);
    const payments = (retrieved.body.transaction ?? []).filter(
      (tx: any) => tx.transaction.type === 'PAYMENT',
    ).length;
    return page(
      matches ? 'Thank you' : 'Payment not confirmed',
      `<h1>${matches ? 'Thank you' : 'Payment not confirmed'}</h1><dl>
<dt>Order</dt><dd id="order">${escape(order)}</dd>
<dt>Indicator</dt><dd id="indicator">${matches ? 'MATCH' : 'NO MATCH'}</dd>
<dt>Returned by</dt><dd id="by">${escape(url.searchParams.get('by') ?? 'redirect')}</dd>
<dt>Order status</dt><dd id="order-status">${escape(retrieved.body.status)}</dd>
<dt>Payments</dt><dd id="payments">${escape(payments)}</dd>
<dt>Saved card</dt><dd id="token">${escape(session.body.sourceOfFunds?.token ?? 'none')}</dd></dl>`,
    );
  };

  const cart = (url: URL): string =>
    page(
      'Your cart',
      `<h1>Your cart</h1><p id="by">${escape(url.searchParams.get('by') ?? 'redirect')}</p>`,
    );

  return startHttpsSite((request, response, at) => {
    base = at;
    const url = new URL(request.url ?? '/', base);
    const html = (text: string) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(text);
    const routes: Record<string, () => Promise<string> | string> = {
      '/checkout': () => checkout(url),
      '/receipt': () => receipt(url),
      '/cart': () => cart(url),
    };
    const route = request.method === 'GET' ? routes[url.pathname] : undefined;
    if (!route) return void response.writeHead(404).end();
    Promise.resolve()
      .then(route)
      .then(html)
      .catch((error: Error) => response.writeHead(500).end(error.message));
  });
}
