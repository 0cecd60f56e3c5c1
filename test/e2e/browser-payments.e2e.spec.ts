import { merchantClient, startGateway, type RunningGateway } from '../support/gateway-process';
import { postForm } from '../support/three-d-secure';

let gateway: RunningGateway;
let api: ReturnType<typeof merchantClient>;
let n = 0;
const newOrder = () => `bp-${Date.now()}-${++n}`;
const RETURN_URL = 'https://shop.example.com/payment-return';

beforeAll(async () => {
  gateway = await startGateway();
  api = merchantClient(gateway);
});
afterAll(() => gateway.stop());

const initiateBody = (
  operation: 'AUTHORIZE' | 'PAY',
  sourceOfFunds: Record<string, unknown> = {
    type: 'PROVIDER_A',
    provided: { providerA: { accountEmail: 'payer@example.com' } },
  },
  extra: Record<string, unknown> = {},
) => ({
  apiOperation: 'INITIATE_BROWSER_PAYMENT',
  browserPayment: {
    operation,
    returnUrl: RETURN_URL,
    ...(sourceOfFunds.type === 'PROVIDER_A'
      ? { providerA: { paymentConfirmation: 'CONFIRM_AT_PROVIDER' } }
      : {}),
  },
  order: { amount: '80.00', currency: 'EUR' },
  sourceOfFunds,
  ...extra,
});

/** The payer opens the provider page, then approves, declines or cancels there. */
async function payerAtProvider(
  redirectUrl: string,
  decision: 'APPROVED' | 'DECLINED' | 'CANCELLED',
) {
  const page = await fetch(redirectUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const back = await postForm(redirectUrl, { decision });
  expect(back.status).toBe(303);
  expect(back.headers.get('location')).toBe(RETURN_URL);
  return html;
}

describe('browser payments over HTTP', () => {
  it('PAY at PROVIDER_A: INITIATED, redirected, approved, COMPLETED with every timestamp; the order is CAPTURED', async () => {
    const order = newOrder();
    const initiated = await api.put(`/order/${order}/transaction/bp-1`, initiateBody('PAY'));
    expect(initiated.status).toBe(201);
    expect(initiated.body).toMatchObject({
      result: 'PENDING',
      browserPayment: {
        operation: 'PAY',
        returnUrl: RETURN_URL,
        redirectUrl: expect.stringMatching(/\/payer\/provider\//),
        interaction: { status: 'INITIATED', timeInitiated: expect.any(String) },
        providerA: { paymentConfirmation: 'CONFIRM_AT_PROVIDER' },
      },
      order: { status: 'INITIATED', totalCapturedAmount: 0 },
      response: { gatewayCode: 'PENDING' },
      transaction: { type: 'PAYMENT', amount: 80 },
      sourceOfFunds: {
        type: 'PROVIDER_A',
        provided: { providerA: { accountEmail: 'payer@example.com' } },
      },
    });
    const { redirectUrl } = initiated.body.browserPayment;
    const html = await payerAtProvider(redirectUrl, 'APPROVED');
    expect(html).toContain('EUR 80.00');
    expect(html).toContain('payer@example.com');
    const retrieved = await api.get(`/order/${order}/transaction/bp-1`);
    expect(retrieved.body).toMatchObject({
      result: 'SUCCESS',
      response: { gatewayCode: 'APPROVED' },
      order: { status: 'CAPTURED', totalCapturedAmount: 80 },
      browserPayment: { interaction: { status: 'COMPLETED' } },
    });
    const { interaction } = retrieved.body.browserPayment;
    for (const time of ['timeInitiated', 'timeRedirected', 'timeReturned', 'timeCompleted'])
      expect(interaction[time]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The original response is kept for a retry of INITIATE_BROWSER_PAYMENT.
    expect((await api.put(`/order/${order}/transaction/bp-1`, initiateBody('PAY'))).text).toBe(
      initiated.text,
    );
  });

  it('AUTHORIZE at PROVIDER_B (bank identifier echoed): AUTHORIZED, then a CAPTURE moves the funds', async () => {
    const order = newOrder();
    const initiated = await api.put(
      `/order/${order}/transaction/bp-1`,
      initiateBody('AUTHORIZE', {
        type: 'PROVIDER_B',
        provided: { providerB: { bankIdentifier: '37040044' } },
      }),
    );
    expect(initiated.body).toMatchObject({
      transaction: { type: 'AUTHORIZATION' },
      sourceOfFunds: { provided: { providerB: { bankIdentifier: '37040044' } } },
    });
    const html = await payerAtProvider(initiated.body.browserPayment.redirectUrl, 'APPROVED');
    expect(html).toContain('37040044');
    const authorized = await api.get(`/order/${order}`);
    expect(authorized.body).toMatchObject({ status: 'AUTHORIZED', totalAuthorizedAmount: 80 });
    const captured = await api.put(`/order/${order}/transaction/cap-1`, {
      apiOperation: 'CAPTURE',
      transaction: { amount: '80.00', currency: 'EUR' },
    });
    expect(captured.body).toMatchObject({ result: 'SUCCESS', order: { status: 'CAPTURED' } });
  });

  it('PROVIDER_B without its bank identifier is refused', async () => {
    const response = await api.put(
      `/order/${newOrder()}/transaction/bp-1`,
      initiateBody('PAY', { type: 'PROVIDER_B' }),
    );
    expect(response.body.error).toMatchObject({
      field: 'sourceOfFunds.provided.providerB.bankIdentifier',
      validationType: 'MISSING',
    });
  });

  it('PROVIDER_D: the payment reference, due date and reason are validated and echoed', async () => {
    const providerD = {
      merchantPaymentReference: 'INV-2026-0042',
      paymentDueDate: '2026-12-31',
      paymentReason: 'Invoice 42',
    };
    const bad = await api.put(
      `/order/${newOrder()}/transaction/bp-1`,
      initiateBody(
        'PAY',
        { type: 'PROVIDER_D' },
        {
          transaction: { providerD: { ...providerD, paymentDueDate: '31/12/2026' } },
        },
      ),
    );
    expect(bad.body.error.field).toBe('transaction.providerD.paymentDueDate');
    const initiated = await api.put(
      `/order/${newOrder()}/transaction/bp-1`,
      initiateBody('PAY', { type: 'PROVIDER_D' }, { transaction: { providerD } }),
    );
    expect(initiated.body.transaction.providerD).toEqual(providerD);
    const page = await (await fetch(initiated.body.browserPayment.redirectUrl)).text();
    expect(page).toContain('INV-2026-0042');
    expect(page).toContain('2026-12-31');
  });

  it.each(['PROVIDER_C', 'PROVIDER_E'])('%s has a provider page too', async (type) => {
    const initiated = await api.put(
      `/order/${newOrder()}/transaction/bp-1`,
      initiateBody('PAY', { type }),
    );
    expect(initiated.status).toBe(201);
    const page = await fetch(initiated.body.browserPayment.redirectUrl);
    expect(await page.text()).toContain(`Provider ${type.slice(-1)}`);
  });

  it.each([
    ['DECLINED', 'DECLINED'],
    ['CANCELLED', 'ABORTED'],
  ] as const)(
    'the payer %s at the provider: %s, the order FAILED, nothing moved',
    async (decision, code) => {
      const order = newOrder();
      const initiated = await api.put(`/order/${order}/transaction/bp-1`, initiateBody('PAY'));
      await payerAtProvider(initiated.body.browserPayment.redirectUrl, decision);
      const retrieved = await api.get(`/order/${order}/transaction/bp-1`);
      expect(retrieved.body).toMatchObject({
        result: 'FAILURE',
        response: { gatewayCode: code },
        order: { status: 'FAILED', totalCapturedAmount: 0 },
        browserPayment: { interaction: { status: 'COMPLETED' } },
      });
    },
  );

  it('PROVIDER_A with CONFIRM_AT_MERCHANT waits at RETURNED_TO_MERCHANT for CONFIRM_BROWSER_PAYMENT', async () => {
    const order = newOrder();
    const body = initiateBody('PAY');
    body.browserPayment.providerA = { paymentConfirmation: 'CONFIRM_AT_MERCHANT' };
    const initiated = await api.put(`/order/${order}/transaction/bp-1`, body);
    await payerAtProvider(initiated.body.browserPayment.redirectUrl, 'APPROVED');
    const waiting = await api.get(`/order/${order}/transaction/bp-1`);
    expect(waiting.body).toMatchObject({
      result: 'PENDING',
      order: { status: 'INITIATED' },
      browserPayment: { interaction: { status: 'RETURNED_TO_MERCHANT' } },
    });
    expect(waiting.body.browserPayment.interaction.timeCompleted).toBeUndefined();
    const wrongAmount = await api.put(`/order/${order}/transaction/bp-1`, {
      apiOperation: 'CONFIRM_BROWSER_PAYMENT',
      order: { amount: '1.00', currency: 'EUR' },
    });
    expect(wrongAmount.body.error.field).toBe('order.amount');
    const confirmBody = {
      apiOperation: 'CONFIRM_BROWSER_PAYMENT',
      order: { amount: '80.00', currency: 'EUR' },
    };
    const confirmed = await api.put(`/order/${order}/transaction/bp-1`, confirmBody);
    expect(confirmed.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'CAPTURED', totalCapturedAmount: 80 },
      browserPayment: { interaction: { status: 'COMPLETED' } },
    });
    // A retried confirmation answers the same; a second one is not a new payment.
    expect((await api.put(`/order/${order}/transaction/bp-1`, confirmBody)).text).toBe(
      confirmed.text,
    );
  });

  describe('refused orderings', () => {
    it('CONFIRM_BROWSER_PAYMENT of a payment the provider confirmed is refused', async () => {
      const order = newOrder();
      const initiated = await api.put(`/order/${order}/transaction/bp-1`, initiateBody('PAY'));
      await payerAtProvider(initiated.body.browserPayment.redirectUrl, 'APPROVED');
      const response = await api.put(`/order/${order}/transaction/bp-1`, {
        apiOperation: 'CONFIRM_BROWSER_PAYMENT',
      });
      expect(response.status).toBe(400);
      expect(response.body.error.field).toBe('transaction.id');
    });

    it('CONFIRM_BROWSER_PAYMENT before the payer returned is refused', async () => {
      const order = newOrder();
      const body = initiateBody('PAY');
      body.browserPayment.providerA = { paymentConfirmation: 'CONFIRM_AT_MERCHANT' };
      await api.put(`/order/${order}/transaction/bp-1`, body);
      const response = await api.put(`/order/${order}/transaction/bp-1`, {
        apiOperation: 'CONFIRM_BROWSER_PAYMENT',
      });
      expect(response.body.error.field).toBe('transaction.id');
    });

    it('a provider page answered once cannot be answered again', async () => {
      const initiated = await api.put(`/order/${newOrder()}/transaction/bp-1`, initiateBody('PAY'));
      const { redirectUrl } = initiated.body.browserPayment;
      await payerAtProvider(redirectUrl, 'DECLINED');
      expect((await postForm(redirectUrl, { decision: 'APPROVED' })).status).toBe(409);
      expect((await fetch(redirectUrl)).status).toBe(409);
    });

    it('returning without having opened the provider page is refused', async () => {
      const initiated = await api.put(`/order/${newOrder()}/transaction/bp-1`, initiateBody('PAY'));
      const back = await postForm(initiated.body.browserPayment.redirectUrl, {
        decision: 'APPROVED',
      });
      expect(back.status).toBe(409);
    });

    it('a payment while the browser payment is under way is refused naming apiOperation', async () => {
      const order = newOrder();
      await api.put(`/order/${order}/transaction/bp-1`, initiateBody('PAY'));
      const response = await api.put(`/order/${order}/transaction/bp-2`, initiateBody('PAY'));
      expect(response.body.error.field).toBe('apiOperation');
    });
  });
});
