import {
  describeWithOpenssl,
  makeTestPki,
  type Issued,
  type TestPki,
} from '../support/certificates';
import {
  authorizeBody,
  basicAuth,
  makeDataDir,
  merchantClient,
  orderIds,
  startGateway,
  type MerchantId,
  type RunningGateway,
} from '../support/gateway-process';
import { ACH_ACCOUNT, PROVIDER_C_ACCOUNT } from '../support/payment-data';

/**
 * Certificate authentication over real TLS connections: a CA, server and client certificates are
 * made with openssl for the run, and clients are node's https with or without a certificate.
 * TESTMERCHANT is named by its certificate's fingerprint, may UNMASK and has card masking 8.4;
 * TESTOTHER is named by its certificate's subject and may not UNMASK.
 */
const ach = ACH_ACCOUNT;
const providerC = PROVIDER_C_ACCOUNT;
const unmasked = { responseControls: { sensitiveData: 'UNMASK' } };
const payFrom = (source: object, extra: object = {}) => ({
  apiOperation: 'PAY',
  order: { amount: '12.00', currency: 'USD' },
  sourceOfFunds: source,
  ...extra,
});

describeWithOpenssl('certificate authentication (real TLS)', () => {
  let pki: TestPki;
  let gateway: RunningGateway;
  let own: Issued;
  let other: Issued;
  const newOrder = orderIds('cert');

  beforeAll(async () => {
    pki = makeTestPki();
    own = pki.client('TESTMERCHANT');
    other = pki.client('TESTOTHER');
    const dataDir = await makeDataDir({
      TESTMERCHANT: {
        certificate: { fingerprint256: own.fingerprint256 },
        permissions: ['UNMASK'],
        masking: { cardNumber: '8.4' },
      },
      TESTOTHER: { certificate: { subject: 'O=Example Shops, CN=TESTOTHER' } },
    });
    gateway = await startGateway(dataDir, {
      GATEWAY_TLS_CERT: pki.server.certFile,
      GATEWAY_TLS_KEY: pki.server.keyFile,
      GATEWAY_TLS_CLIENT_CA: pki.ca.certFile,
    });
  });
  afterAll(() => gateway?.stop());

  /** A client over TLS presenting `certificate` (or none), with no password unless given one. */
  const client = (
    merchant: MerchantId,
    certificate?: Issued,
    authorization: string | null = null,
  ) =>
    merchantClient(gateway, merchant, 100, {
      tls: {
        ca: pki.ca.cert,
        ...(certificate ? { cert: certificate.cert, key: certificate.key } : {}),
      },
      authorization,
    });

  it('serves HTTPS and says so in its start-up line', () => {
    expect(gateway.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("gets the merchant in with its certificate and no password, showing cards under the merchant's 8.4 masking", async () => {
    const order = newOrder();
    const response = await client('TESTMERCHANT', own).put(
      `/order/${order}/transaction/a1`,
      authorizeBody(),
    );
    expect(response.status).toBe(201);
    expect(response.body.result).toBe('SUCCESS');
    expect(response.body.sourceOfFunds.provided.card.number).toBe('51234500xxxx0008');
    expect(response.body.sourceOfFunds.provided.card).not.toHaveProperty('fingerprint');
    const retrieved = await client('TESTMERCHANT', own).get(`/order/${order}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body.sourceOfFunds.provided.card.number).toBe('51234500xxxx0008');
  });

  it('with Basic authentication instead, the stricter of the merchant setting and 6.4 applies', async () => {
    const order = newOrder();
    const basic = client(
      'TESTMERCHANT',
      undefined,
      basicAuth('TESTMERCHANT', 'password-of-testmerchant'),
    );
    const response = await basic.put(`/order/${order}/transaction/a1`, authorizeBody());
    expect(response.status).toBe(201);
    expect(response.body.sourceOfFunds.provided.card.number).toBe('512345xxxxxx0008');
    // The same order read back with the certificate shows the merchant's own setting.
    const withCertificate = await client('TESTMERCHANT', own).get(`/order/${order}/transaction/a1`);
    expect(withCertificate.body.sourceOfFunds.provided.card.number).toBe('51234500xxxx0008');
  });

  it('recognises a merchant named by its certificate subject', async () => {
    const response = await client('TESTOTHER', other).put(
      `/order/${newOrder()}/transaction/a1`,
      authorizeBody(),
    );
    expect(response.status).toBe(201);
    expect(response.body.merchant).toBe('TESTOTHER');
  });

  it('UNMASK with certificate and permission returns bank account numbers and IBANs in clear', async () => {
    const order = newOrder();
    const api = client('TESTMERCHANT', own);
    const achPay = await api.put(
      `/order/${order}/transaction/p1`,
      payFrom({ type: 'ACH', provided: { ach } }, unmasked),
    );
    expect(achPay.status).toBe(201);
    expect(achPay.body.sourceOfFunds).toEqual({ type: 'ACH', provided: { ach } });

    const bankPay = await api.put(
      `/order/${newOrder()}/transaction/p1`,
      payFrom({ type: 'PROVIDER_C', provided: { providerC } }, unmasked),
    );
    expect(bankPay.status).toBe(201);
    expect(bankPay.body.sourceOfFunds.provided.providerC).toEqual(providerC);

    // Without UNMASK, and on retrieval, the same data stays masked.
    const retrieved = await api.get(`/order/${order}`);
    expect(retrieved.body.sourceOfFunds.provided.ach.bankAccountNumber).toBe('xxxxxxxx6789');
    const retried = await api.put(
      `/order/${order}/transaction/p1`,
      payFrom({ type: 'ACH', provided: { ach } }, unmasked),
    );
    expect(retried.text).toBe(achPay.text);
  });

  it('refuses UNMASK under Basic authentication, even for a merchant with the permission', async () => {
    const basic = client(
      'TESTMERCHANT',
      undefined,
      basicAuth('TESTMERCHANT', 'password-of-testmerchant'),
    );
    const response = await basic.put(
      `/order/${newOrder()}/transaction/p1`,
      payFrom({ type: 'ACH', provided: { ach } }, unmasked),
    );
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      result: 'ERROR',
      error: { cause: 'REQUEST_REJECTED', supportCode: 'UNMASK_NEEDS_CERTIFICATE' },
    });
  });

  it('refuses UNMASK with a certificate but without the permission', async () => {
    const order = newOrder();
    const response = await client('TESTOTHER', other).put(
      `/order/${order}/transaction/p1`,
      payFrom({ type: 'ACH', provided: { ach } }, unmasked),
    );
    expect(response.status).toBe(403);
    expect(response.body.error).toEqual({
      cause: 'REQUEST_REJECTED',
      supportCode: 'UNMASK_NOT_PERMITTED',
    });
    // Nothing was recorded.
    expect((await client('TESTOTHER', other).get(`/order/${order}`)).status).toBe(404);
  });

  it.each<[string, MerchantId, () => Issued | undefined]>([
    ["another merchant's certificate", 'TESTOTHER', () => own],
    [
      'a certificate from an untrusted CA with the right subject',
      'TESTOTHER',
      () => pki.rogue('TESTOTHER'),
    ],
    ['no certificate', 'TESTMERCHANT', () => undefined],
  ])('answers 401 to %s without a password', async (_, merchant, certificate) => {
    const api = client(merchant, certificate());
    const put = await api.put(`/order/${newOrder()}/transaction/a1`, authorizeBody());
    expect(put.status).toBe(401);
    expect(put.body).toEqual({
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
    });
    expect((await api.get(`/order/${newOrder()}`)).status).toBe(401);
  });

  it('a client without a certificate still gets in with Basic authentication', async () => {
    const basic = client('TESTOTHER', undefined, basicAuth('TESTOTHER', 'password-of-testother'));
    expect((await basic.put(`/order/${newOrder()}/transaction/a1`, authorizeBody())).status).toBe(
      201,
    );
  });
});

describeWithOpenssl('plain HTTP start-up', () => {
  it('refuses a non-loopback HOST without TLS, naming the problem', async () => {
    const started = startGateway(undefined, { HOST: '0.0.0.0' });
    await expect(started).rejects.toThrow(/gateway exited with 1/);
    await expect(started).rejects.toThrow(/HOST='0\.0\.0\.0' is not a loopback address/);
  });

  it('refuses a key that does not belong to the certificate', async () => {
    const pki = makeTestPki();
    const started = startGateway(undefined, {
      GATEWAY_TLS_CERT: pki.server.certFile,
      GATEWAY_TLS_KEY: pki.ca.keyFile,
    });
    await expect(started).rejects.toThrow(
      /GATEWAY_TLS_KEY is not the private key of GATEWAY_TLS_CERT/,
    );
  });
});
