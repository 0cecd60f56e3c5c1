import { createHash } from 'node:crypto';
import { documentedIntegrity } from '../support/checkout-shop';
import { hiddenFields, postForm } from '../support/three-d-secure';
import {
  eventually,
  receiverPath,
  startWebhookReceiver,
  webhookEnv,
  type WebhookReceiver,
} from '../support/webhook-receiver';
import {
  merchantClient,
  orderIds,
  startGateway,
  useGateway,
  type GatewayUnderTest,
} from '../support/gateway-process';

/**
 * Hosted Checkout over HTTP (issue 16): checkout.min.js as served, and the payment page's
 * guarantees a browser suite cannot probe well: a tampered or replayed step is refused, one
 * payment per checkout session, expiry, framing, and no successIndicator before success.
 */
const nextOrder = orderIds('hco');
const CARD = {
  number: '4508750015741019',
  expiryMonth: '01',
  expiryYear: '39',
  securityCode: '100',
};

/** The order's PAYMENT transactions (the page authenticates first: AUTHENTICATION ones too). */
async function paymentsOf(under: GatewayUnderTest, orderId: string) {
  const order = await under.api.get(`/order/${orderId}`);
  return (order.body.transaction as any[]).filter((tx) => tx.transaction.type === 'PAYMENT');
}

async function createCheckout(
  under: GatewayUnderTest,
  orderId = nextOrder(),
  operation = 'PURCHASE',
  notificationUrl?: string,
) {
  const created = await under.api.post('/session', {
    apiOperation: 'INITIATE_CHECKOUT',
    interaction: {
      operation,
      returnUrl: 'https://shop.example:8443/receipt?basket=7',
      cancelUrl: 'https://shop.example:8443/cart',
      merchant: { name: 'Mug Shop' },
    },
    order: {
      id: orderId,
      amount: '49.90',
      currency: 'USD',
      ...(notificationUrl ? { notificationUrl } : {}),
    },
  });
  expect(created.status).toBe(201);
  return {
    orderId,
    id: created.body.session.id as string,
    successIndicator: created.body.successIndicator as string,
    page: `${under.gateway.baseUrl}/payer/checkout/${created.body.session.id}`,
  };
}

/**
 * The payer at the simulator's challenge page, from the page that auto-posts there: success
 * chosen, the auto-post back to the payment page (returnTo) and its fields (back).
 */
async function throughIssuer(under: GatewayUnderTest, toIssuer: string) {
  const action = (page: string) => /action="([^"]+)"/.exec(page)![1].replaceAll('&amp;', '&');
  const issuer = await postForm(action(toIssuer), hiddenFields(toIssuer));
  const result = `${under.gateway.baseUrl}${action(issuer.text)}`;
  const back = await postForm(result, { choice: 'success' });
  return { returnTo: action(back.text), back };
}

/** The page as a browser gets it, and the token its form carries. */
async function open(url: string) {
  const response = await fetch(url);
  const text = await response.text();
  const token = /name="token" value="([^"]+)"/.exec(text)?.[1];
  return { response, text, token };
}

describe('Hosted Checkout', () => {
  const under = useGateway();

  describe('checkout.min.js', () => {
    const url = () => `${under.gateway.baseUrl}/static/checkout/checkout.min.js`;

    it('is served with the SRI hash the docs give, caching headers and CORS', async () => {
      const response = await fetch(url());
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
      expect(integrity).toBe(documentedIntegrity());
      expect(bytes.toString('utf8')).toMatch(/window\.Checkout = \{/);
      const etag = response.headers.get('etag');
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await fetch(url(), { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    });
  });

  describe('the payment page', () => {
    it('may be framed by the merchant origin only, shows the payment, never the successIndicator', async () => {
      const checkout = await createCheckout(under);
      const { response, text, token } = await open(checkout.page);
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/frame-ancestors https:\/\/shop\.example:8443$/);
      expect(policy).toMatch(/default-src 'none'/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(text).toContain('USD 49.90');
      expect(text).toContain('Mug Shop');
      expect(text).not.toContain(checkout.successIndicator);
      expect(token).toBeDefined();
    });

    it('pays once: returnUrl with resultIndicator, then the page and its forms say it is paid', async () => {
      const checkout = await createCheckout(under);
      const { token } = await open(checkout.page);
      const paid = await postForm(checkout.page, { ...CARD, token: token!, mode: 'page' });
      expect(paid.status).toBe(303);
      const back = new URL(paid.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe('https://shop.example:8443/receipt');
      expect(back.searchParams.get('basket')).toBe('7');
      expect(back.searchParams.get('resultIndicator')).toBe(checkout.successIndicator);
      const session = await under.api.get(`/session/${checkout.id}`);
      expect(back.searchParams.get('sessionVersion')).toBe(session.body.session.version);
      const order = await under.api.get(`/order/${checkout.orderId}`);
      expect(order.body.status).toBe('CAPTURED');
      expect(await paymentsOf(under, checkout.orderId)).toHaveLength(1);
      // The same form again, and a fresh one: no second payment.
      expect((await postForm(checkout.page, { ...CARD, token: token!, mode: 'page' })).status).toBe(
        409,
      );
      expect((await open(checkout.page)).response.status).toBe(409);
      expect(await paymentsOf(under, checkout.orderId)).toHaveLength(1);
    });

    it('refuses a replayed step after a decline, and a tampered token', async () => {
      const checkout = await createCheckout(under);
      const { token } = await open(checkout.page);
      const declined = await postForm(checkout.page, { ...CARD, expiryMonth: '05', token: token! });
      expect(declined.status).toBe(200);
      const retry = /name="token" value="([^"]+)"/.exec(declined.text)?.[1];
      expect(retry).not.toBe(token);
      expect((await postForm(checkout.page, { ...CARD, token: token! })).status).toBe(409);
      const [payload, signature] = retry!.split('.');
      const forged = `${payload.slice(0, -2)}AA.${signature}`;
      expect((await postForm(checkout.page, { ...CARD, token: forged })).status).toBe(400);
      expect((await postForm(checkout.page, { ...CARD })).status).toBe(400);
      // The token of another checkout session is not this one's.
      const other = await open((await createCheckout(under)).page);
      expect((await postForm(checkout.page, { ...CARD, token: other.token! })).status).toBe(400);
      expect((await postForm(checkout.page, { ...CARD, token: retry! })).status).toBe(303);
    });

    it('takes one of two forms sent at once with the same token', async () => {
      const checkout = await createCheckout(under);
      const { token } = await open(checkout.page);
      const answers = await Promise.all(
        [1, 2].map(() => postForm(checkout.page, { ...CARD, token: token! })),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
      expect(await paymentsOf(under, checkout.orderId)).toHaveLength(1);
    });

    it('judges the card by the contract before taking the step: the same token still pays', async () => {
      const checkout = await createCheckout(under);
      const { token } = await open(checkout.page);
      const refused = await postForm(checkout.page, {
        ...CARD,
        securityCode: '12x',
        token: token!,
      });
      expect(refused.status).toBe(400);
      const text = refused.text;
      expect(text).toMatch(/role="alert"/);
      expect(text).toMatch(/id="securityCode"[^>]*aria-invalid="true"/);
      expect(text).not.toContain('12x');
      // Nothing was paid: the order does not exist.
      expect((await under.api.get(`/order/${checkout.orderId}`)).status).toBe(404);
      expect((await postForm(checkout.page, { ...CARD, token: token! })).status).toBe(303);
    });

    it('a challenge card: the issuer page, then paid once; the return replayed is refused', async () => {
      const checkout = await createCheckout(under);
      const { token } = await open(checkout.page);
      const toIssuer = await postForm(checkout.page, {
        ...CARD,
        number: '5123450000000008',
        token: token!,
      });
      expect(toIssuer.text).not.toContain(checkout.successIndicator);
      const { returnTo, back } = await throughIssuer(under, toIssuer.text);
      expect(returnTo).toMatch(/\/payer\/checkout\/SESSION\w+\/3ds\?token=/);
      const paid = await postForm(returnTo, hiddenFields(back.text));
      expect(paid.status).toBe(303);
      const location = new URL(paid.headers.get('location')!);
      expect(location.searchParams.get('resultIndicator')).toBe(checkout.successIndicator);
      expect((await postForm(returnTo, hiddenFields(back.text))).status).toBe(409);
      expect(await paymentsOf(under, checkout.orderId)).toHaveLength(1);
      expect((await postForm(`${checkout.page}/3ds?token=${token}`, {})).status).toBe(409);
      expect(await paymentsOf(under, checkout.orderId)).toHaveLength(1);
    });

    it('NONE keeps the card in the session: no payment by the page, the merchant pays citing it', async () => {
      const checkout = await createCheckout(under, nextOrder(), 'NONE');
      const { token } = await open(checkout.page);
      const kept = await postForm(checkout.page, { ...CARD, token: token! });
      expect(kept.status).toBe(303);
      const back = new URL(kept.headers.get('location')!);
      expect(back.searchParams.get('resultIndicator')).toBe(checkout.successIndicator);
      const session = await under.api.get(`/session/${checkout.id}`);
      expect(session.body.sourceOfFunds.provided.card.number).toBe('450875xxxxxx1019');
      expect((await under.api.get(`/order/${checkout.orderId}`)).status).toBe(404);
      const paid = await under.api.put(`/order/${checkout.orderId}/transaction/t1`, {
        apiOperation: 'PAY',
        order: { amount: '49.90', currency: 'USD' },
        session: { id: checkout.id },
      });
      expect(paid.body.response.gatewayCode).toBe('APPROVED');
    });

    it('a challenge left waiting, then another card paid: the late return pays nothing', async () => {
      const checkout = await createCheckout(under);
      const first = await open(checkout.page);
      const challenge = { ...CARD, number: '5123450000000008', token: first.token! };
      const toIssuer = await postForm(checkout.page, challenge);
      expect(toIssuer.text).toContain('/payer/acs/');
      // The payer goes back to the page instead, and pays with a card that needs no challenge.
      const second = await open(checkout.page);
      expect((await postForm(checkout.page, { ...CARD, token: second.token! })).status).toBe(303);
      const { returnTo, back } = await throughIssuer(under, toIssuer.text);
      expect((await postForm(returnTo, hiddenFields(back.text))).status).toBe(409);
      expect(await paymentsOf(under, checkout.orderId)).toHaveLength(1);
    });

    it('tells a framed merchant page by postMessage, to its origin only', async () => {
      const checkout = await createCheckout(under);
      const { token } = await open(`${checkout.page}?mode=embedded`);
      const paid = await postForm(checkout.page, { ...CARD, token: token!, mode: 'embedded' });
      expect(paid.status).toBe(200);
      const text = paid.text;
      expect(text).toContain('data-origin="https://shop.example:8443"');
      expect(text).toContain(`data-result-indicator="${checkout.successIndicator}"`);
    });

    it('cancel goes to cancelUrl; an unknown session is a page that says so', async () => {
      const checkout = await createCheckout(under);
      const { token } = await open(checkout.page);
      const cancelled = await postForm(`${checkout.page}/cancel`, { token: token! });
      expect(cancelled.status).toBe(303);
      expect(cancelled.headers.get('location')).toBe('https://shop.example:8443/cart');
      const unknown = await open(
        `${under.gateway.baseUrl}/payer/checkout/SESSIONXXXXXXXXXXXXXXXXXXXXXXXXX`,
      );
      expect(unknown.response.status).toBe(404);
      expect(unknown.text).toMatch(/has expired or does not exist/);
    });
  });

  describe('webhooks', () => {
    let receiver: WebhookReceiver;
    const notified = {} as { -readonly [K in keyof GatewayUnderTest]: GatewayUnderTest[K] };
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      notified.gateway = await startGateway(undefined, webhookEnv(receiver));
      notified.api = merchantClient(notified.gateway);
    });
    afterAll(async () => {
      await notified.gateway?.stop();
      await receiver?.close();
    });

    it.each(['VERIFY', 'PURCHASE'])(
      "%s: the page's operations notify the session's order.notificationUrl like any other",
      async (operation) => {
        const orderId = nextOrder();
        const path = receiverPath(orderId, 'hook');
        const url = `${receiver.url}${path}`;
        const checkout = await createCheckout(notified, orderId, operation, url);
        const { token } = await open(checkout.page);
        expect((await postForm(checkout.page, { ...CARD, token: token! })).status).toBe(303);
        // PURCHASE: the page's INITIATE_AUTHENTICATION opens the order (and notifies), then PAY.
        const expected = operation === 'VERIFY' ? ['VERIFICATION'] : ['AUTHENTICATION', 'PAYMENT'];
        const typesOf = () =>
          receiver.received(path).map((r) => JSON.parse(r.body).transaction.type as string);
        await eventually(async () => typesOf().includes(expected.at(-1)!));
        expect([...new Set(typesOf())]).toEqual(expected);
        const [notification] = receiver.received(path);
        expect(JSON.parse(notification.body).order).toMatchObject({
          id: orderId,
          notificationUrl: url,
        });
      },
    );
  });

  describe('expiry', () => {
    const short = useGateway({ GATEWAY_SESSION_TTL: '1' });

    it('after the session lifetime the page and its form are refused', async () => {
      const checkout = await createCheckout(short);
      const { token } = await open(checkout.page);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await open(checkout.page)).response.status).toBe(404);
      expect((await postForm(checkout.page, { ...CARD, token: token! })).status).toBe(404);
    });
  });
});
