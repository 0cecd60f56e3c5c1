import {
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { authenticatePayerBody, card, initiateAuthenticationBody } from '../support/three-d-secure';
import {
  receiverPath as at,
  startWebhookReceiver,
  webhookEnv,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * Webhooks for orders whose first transaction is 3-D Secure: INITIATE_AUTHENTICATION takes
 * order.notificationUrl, and a later transaction giving one sets the order's from then on. The
 * built gateway notifies a real HTTPS receiver (as in webhooks.e2e.spec.ts).
 */
const FRICTIONLESS = '5123456789012346';

describe('webhook notifications of 3-D Secure orders', () => {
  let receiver: WebhookReceiver;
  let gateway: RunningGateway;
  let api: ReturnType<typeof merchantClient>;
  const nextOrder = orderIds('wh3ds');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    gateway = await startGateway(undefined, webhookEnv(receiver));
    api = merchantClient(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.close();
  });

  const initiate = (orderId: string, notificationUrl?: string) =>
    api.put(
      `/order/${orderId}/transaction/a1`,
      initiateAuthenticationBody(FRICTIONLESS, {
        order: { currency: 'USD', ...(notificationUrl ? { notificationUrl } : {}) },
      }),
    );
  const authenticateAndPay = async (orderId: string, notificationUrl?: string) => {
    const payer = await api.put(`/order/${orderId}/transaction/a1`, authenticatePayerBody());
    expect(payer.body.transaction.authenticationStatus).toBe('AUTHENTICATION_SUCCESSFUL');
    const paid = await api.put(`/order/${orderId}/transaction/pay-1`, {
      apiOperation: 'PAY',
      order: { amount: '250.00', currency: 'USD', ...(notificationUrl ? { notificationUrl } : {}) },
      sourceOfFunds: { provided: { card: card(FRICTIONLESS) } },
      authentication: { transactionId: 'a1' },
    });
    expect(paid.status).toBe(201);
    expect(paid.body.order.status).toBe('CAPTURED');
    return paid;
  };
  const transactionIds = (path: string, count: number) =>
    receiver
      .waitFor(path, count)
      .then((received) => received.map((r) => JSON.parse(r.body).transaction.id));

  it('an order opened by INITIATE_AUTHENTICATION with a notificationUrl is notified of every step, the PAY too', async () => {
    const orderId = nextOrder();
    const url = `${receiver.url}${at(orderId, 'ok')}`;
    expect((await initiate(orderId, url)).body.order.notificationUrl).toBe(url);
    const paid = await authenticateAndPay(orderId);
    expect(await transactionIds(at(orderId, 'ok'), 3)).toEqual(['a1', 'a1', 'pay-1']);
    const [, , payNotice] = receiver.received(at(orderId, 'ok'));
    expect(JSON.parse(payNotice.body)).toEqual(
      (await api.get(`/order/${orderId}/transaction/pay-1`)).body,
    );
    expect(paid.body.order.notificationUrl).toBe(url);
  });

  it('3-D Secure without a URL, then a PAY giving one: notified from the PAY on, retries unchanged', async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'from-pay');
    const url = `${receiver.url}${path}`;
    const initiated = await initiate(orderId);
    expect(initiated.status).toBe(201);
    expect(initiated.body.order.notificationUrl).toBeUndefined();
    await authenticateAndPay(orderId, url);
    const refund = await api.put(`/order/${orderId}/transaction/ref-1`, {
      apiOperation: 'REFUND',
      transaction: { amount: '10.00', currency: 'USD' },
    });
    expect(refund.body.order.notificationUrl).toBe(url);
    expect(await transactionIds(path, 2)).toEqual(['pay-1', 'ref-1']);
    expect((await api.get(`/order/${orderId}`)).body.notificationUrl).toBe(url);
    // The first transaction's retry answers as it did: the order then had no notificationUrl.
    const retried = await initiate(orderId);
    expect(retried.status).toBe(initiated.status);
    expect(retried.text).toBe(initiated.text);
  });
});
