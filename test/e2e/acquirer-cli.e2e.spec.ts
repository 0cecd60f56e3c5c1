import { resolve } from 'node:path';
import {
  authorizeBody,
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { runBuiltCli } from '../support/ledger-process';
import { selfSignedCertificate } from '../support/self-signed-certificate';
import {
  receiverPath,
  startWebhookReceiver,
  webhookEnv,
  type WebhookReceiver,
} from '../support/webhook-receiver';

const CLI = resolve(__dirname, '../../dist/apps/acquirer-cli/src/acquirer.cli.js');
const TOKEN = 'operator-token-of-the-e2e-run';
const newOrder = orderIds('ops');

/**
 * The operators' acquirer CLI against a real gateway, as an operator runs it: its own process,
 * GATEWAY_URL and GATEWAY_OPERATOR_TOKEN in the environment, the order checked over the
 * merchant's API afterwards.
 */
describe('acquirer CLI against a gateway', () => {
  let gateway: RunningGateway;
  let api: ReturnType<typeof merchantClient>;
  let receiver: WebhookReceiver;
  const acquirer = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runBuiltCli(CLI, args, {
      GATEWAY_URL: gateway.baseUrl,
      GATEWAY_OPERATOR_TOKEN: TOKEN,
      ...env,
    });

  /** An order of TESTMERCHANT authorized for 100.00 USD, captured for `captured`, notifying the receiver. */
  const capturedOrder = async (captured = '60.50') => {
    const order = newOrder();
    const notificationUrl = `${receiver.url}${receiverPath(order, 'hook')}`;
    const authorize = authorizeBody('100.00', undefined, {
      order: { amount: '100.00', currency: 'USD', notificationUrl },
    });
    expect((await api.put(`/order/${order}/transaction/auth`, authorize)).status).toBe(201);
    const capture = await api.put(`/order/${order}/transaction/cap`, {
      apiOperation: 'CAPTURE',
      transaction: { amount: captured, currency: 'USD' },
    });
    expect(capture.status).toBe(201);
    return order;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    gateway = await startGateway(undefined, {
      GATEWAY_OPERATOR_TOKEN: TOKEN,
      ...webhookEnv(receiver),
    });
    api = merchantClient(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.close();
  });

  it('disputes a capture, then charges the dispute back, then the rest, notifying each', async () => {
    const order = await capturedOrder();
    const at = ['--merchant', 'TESTMERCHANT', '--order', order];

    const dispute = await acquirer(['dispute', ...at, '--amount', '20']);
    expect(dispute).toEqual({
      code: 0,
      stdout: `dispute ops-dispute-1 opened on order ${order} of TESTMERCHANT: 20 USD of transaction cap; order status DISPUTED\n`,
      stderr: '',
    });
    expect((await api.get(`/order/${order}`)).body).toMatchObject({ status: 'DISPUTED' });

    const chargeback = await acquirer(['chargeback', ...at]);
    expect(chargeback.code).toBe(0);
    expect(chargeback.stdout).toBe(
      `chargeback ops-chargeback-1 processed on order ${order} of TESTMERCHANT: 20 USD of transaction cap; order status CHARGEBACK_PROCESSED, charged back in all 20\n`,
    );
    const rest = await acquirer(['chargeback', ...at]);
    expect(rest.stdout).toMatch(/: 40\.5 USD of transaction cap; .* charged back in all 60\.5\n$/);

    const retrieved = (await api.get(`/order/${order}`)).body;
    expect(retrieved).toMatchObject({
      status: 'CHARGEBACK_PROCESSED',
      totalCapturedAmount: 60.5,
      totalChargebackAmount: 60.5,
    });
    const chargebacks = retrieved.transaction
      .map((t: any) => t.transaction)
      .filter((t: any) => t.type === 'CHARGEBACK');
    expect(chargebacks).toEqual([
      expect.objectContaining({ id: 'ops-chargeback-1', amount: 20 }),
      expect.objectContaining({ id: 'ops-chargeback-2', amount: 40.5 }),
    ]);

    // The merchant hears of each, as of any transaction: authorize, capture, then the acquirer's.
    const notified = await receiver.waitFor(receiverPath(order, 'hook'), 5);
    expect(
      notified.slice(2).map(({ body }) => {
        const { order: after, transaction } = JSON.parse(body);
        return [after.status, transaction.type, transaction.id];
      }),
    ).toEqual([
      ['DISPUTED', 'CAPTURE', 'cap'],
      ['CHARGEBACK_PROCESSED', 'CHARGEBACK', 'ops-chargeback-1'],
      ['CHARGEBACK_PROCESSED', 'CHARGEBACK', 'ops-chargeback-2'],
    ]);

    // Nothing is left: refused, exit 1, and the order is as it was.
    const again = await acquirer(['dispute', ...at]);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toMatch(
      /^refused, HTTP 400: Nothing of the 60\.5 USD captured .* \(orderId\)\n$/,
    );
    expect((await api.get(`/order/${order}`)).body).toEqual(retrieved);
  });

  it('refuses with the message, exit 1, and records nothing', async () => {
    const authorizedOnly = newOrder();
    await api.put(`/order/${authorizedOnly}/transaction/auth`, authorizeBody('100.00'));
    const captured = await capturedOrder('10.00');
    const before = (await api.get(`/order/${captured}`)).body;
    const cases: [string[], RegExp][] = [
      [
        ['dispute', '--merchant', 'TESTMERCHANT', '--order', authorizedOnly],
        /HTTP 400: Order '.*' has nothing captured that could be disputed \(orderId\)/,
      ],
      [
        ['chargeback', '--merchant', 'TESTMERCHANT', '--order', captured, '--amount', '10.01'],
        /HTTP 400: Value '10\.01' is invalid\. Amount exceeds the 10 .* \(amount\)/,
      ],
      [
        ['dispute', '--merchant', 'LIVEMERCHANT', '--order', captured],
        /HTTP 400: .*Only a test merchant's orders .* \(merchantId\)/,
      ],
      [
        ['dispute', '--merchant', 'TESTNOBODY', '--order', captured],
        /HTTP 400: Merchant 'TESTNOBODY' is unknown \(merchantId\)/,
      ],
      [
        ['chargeback', '--merchant', 'TESTOTHER', '--order', captured],
        /HTTP 404: Order '.*' was not found/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await acquirer(args);
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(run.stderr).toMatch(message);
    }
    const wrongToken = await acquirer(
      ['dispute', '--merchant', 'TESTMERCHANT', '--order', captured],
      { GATEWAY_OPERATOR_TOKEN: 'not-the-token' },
    );
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toMatch(
      /HTTP 401: Invalid credentials\.; set GATEWAY_OPERATOR_TOKEN/,
    );
    expect((await api.get(`/order/${captured}`)).body).toEqual(before);
  });

  it('answers usage mistakes with the usage, exit 2, and --help with exit 0', async () => {
    const bad = await acquirer(['dispute', '--order', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^dispute needs --merchant\nusage: acquirer <command>/);
    const help = await acquirer(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: acquirer <command>/);
  });
});

describe('acquirer CLI against an https gateway', () => {
  let gateway: RunningGateway;
  let certFile: string;

  beforeAll(async () => {
    const certificate = selfSignedCertificate();
    certFile = certificate.certFile;
    // No operator token: the operator API answers loopback clients only.
    gateway = await startGateway(undefined, {
      GATEWAY_TLS_CERT: certFile,
      GATEWAY_TLS_KEY: certificate.keyFile,
    });
  });
  afterAll(() => gateway?.stop());

  it('trusts the gateway through --ca, and says so when it cannot', async () => {
    const args = ['dispute', '--merchant', 'TESTMERCHANT', '--order', 'no-such-order'];
    const env = { GATEWAY_URL: gateway.baseUrl, GATEWAY_OPERATOR_TOKEN: '' };
    const trusted = await runBuiltCli(CLI, [...args, '--ca', certFile], env);
    expect(trusted).toMatchObject({ code: 1 });
    expect(trusted.stderr).toMatch(/^refused, HTTP 404: Order 'no-such-order' was not found/);
    const untrusted = await runBuiltCli(CLI, args, env);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(
      /^cannot reach the gateway at https:\/\/127\.0\.0\.1:\d+: .*certificate/,
    );
  });
});
