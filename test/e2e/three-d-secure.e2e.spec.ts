import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  merchantClient,
  startGateway,
  type RunningGateway,
  useGateway,
  orderIds,
} from '../support/gateway-process';
import {
  authenticatePayerBody,
  card,
  decryptEncryptedData,
  hiddenFields,
  initiateAuthenticationBody,
  postForm,
} from '../support/three-d-secure';

const under = useGateway();
const newOrder = orderIds('3ds');

/** A session holding the card, as a merchant's payment page would fill it. */
async function sessionWithCard(number: string) {
  const created = await under.api.post('/session');
  expect(created.status).toBe(201);
  const { id, aes256Key } = created.body.session;
  const updated = await under.api.put(`/session/${id}`, {
    sourceOfFunds: { provided: { card: card(number) } },
  });
  expect(updated.status).toBe(200);
  return { id: id as string, version: updated.body.session.version as string, aes256Key };
}

/** INITIATE_AUTHENTICATION then AUTHENTICATE_PAYER with the card in a session. */
async function authenticate(number: string, order = newOrder(), tx = 'auth-1') {
  const session = await sessionWithCard(number);
  const initiated = await under.api.put(`/order/${order}/transaction/${tx}`, {
    ...initiateAuthenticationBody(number),
    sourceOfFunds: undefined,
    session: { id: session.id },
  });
  expect(initiated.status).toBe(201);
  const payer = await under.api.put(
    `/order/${order}/transaction/${tx}`,
    authenticatePayerBody(undefined, { session: { id: session.id, version: session.version } }),
  );
  return { order, tx, session, initiated, payer };
}

describe('3-D Secure over HTTP', () => {
  it('INITIATE_AUTHENTICATION answers AUTHENTICATION_AVAILABLE for an enrolled card', async () => {
    const order = newOrder();
    const response = await under.api.put(
      `/order/${order}/transaction/a1`,
      initiateAuthenticationBody('5123450000000008'),
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      result: 'SUCCESS',
      authentication: { version: '3DS2', channel: 'PAYER_BROWSER', acceptVersions: '3DS2' },
      order: {
        status: 'AUTHENTICATION_INITIATED',
        authenticationStatus: 'AUTHENTICATION_AVAILABLE',
        amount: 0,
      },
      response: { gatewayRecommendation: 'PROCEED' },
      transaction: {
        type: 'AUTHENTICATION',
        authenticationStatus: 'AUTHENTICATION_AVAILABLE',
        amount: 0,
      },
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
    });
  });

  it('5123459999998221: AUTHENTICATION_UNAVAILABLE; AUTHENTICATE_PAYER is refused; AUTHORIZE may follow', async () => {
    const order = newOrder();
    const initiated = await under.api.put(
      `/order/${order}/transaction/a1`,
      initiateAuthenticationBody('5123459999998221'),
    );
    expect(initiated.body).toMatchObject({
      authentication: { version: 'NONE' },
      order: {
        status: 'AUTHENTICATION_UNSUCCESSFUL',
        authenticationStatus: 'AUTHENTICATION_UNAVAILABLE',
      },
      response: { gatewayRecommendation: 'PROCEED' },
    });
    const payer = await under.api.put(`/order/${order}/transaction/a1`, authenticatePayerBody());
    expect(payer.status).toBe(400);
    expect(payer.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field: 'apiOperation' });
    const authorize = await under.api.put(`/order/${order}/transaction/pay-1`, {
      apiOperation: 'AUTHORIZE',
      order: { amount: '250.00', currency: 'USD' },
      sourceOfFunds: { provided: { card: card('5123459999998221') } },
      authentication: { transactionId: 'a1' },
    });
    expect(authorize.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'AUTHORIZED', authenticationStatus: 'AUTHENTICATION_UNAVAILABLE' },
      transaction: { authenticationStatus: 'AUTHENTICATION_UNAVAILABLE' },
    });
  });

  it.each([
    ['5123456789012346', 'AUTHENTICATION_SUCCESSFUL', 'Y', 'AUTHENTICATED', 'APPROVED', 'PROCEED'],
    ['5555555555000018', 'AUTHENTICATION_SUCCESSFUL', 'Y', 'AUTHENTICATED', 'APPROVED', 'PROCEED'],
    ['4440000042200014', 'AUTHENTICATION_SUCCESSFUL', 'Y', 'AUTHENTICATED', 'APPROVED', 'PROCEED'],
    ['371881887105009', 'AUTHENTICATION_SUCCESSFUL', 'Y', 'AUTHENTICATED', 'APPROVED', 'PROCEED'],
    ['5500005555555559', 'AUTHENTICATION_ATTEMPTED', 'A', 'AUTHENTICATED', 'APPROVED', 'PROCEED'],
    ['4440000042200022', 'AUTHENTICATION_ATTEMPTED', 'A', 'AUTHENTICATED', 'APPROVED', 'PROCEED'],
    [
      '5506900140100503',
      'AUTHENTICATION_REJECTED',
      'R',
      'AUTHENTICATION_UNSUCCESSFUL',
      'DECLINED',
      'DO_NOT_PROCEED',
    ],
  ])(
    'frictionless card %s: %s (transStatus %s), order %s',
    async (number, status, transStatus, orderStatus, gatewayCode, recommendation) => {
      const { order, session, payer } = await authenticate(number);
      expect(payer.status).toBe(201);
      expect(payer.body).toMatchObject({
        authentication: {
          payerInteraction: 'NOT_REQUIRED',
          '3ds2': { transactionStatus: transStatus },
          redirectResponseUrl: 'https://shop.example.com/3ds-return',
        },
        order: { status: orderStatus, authenticationStatus: status },
        response: { gatewayCode, gatewayRecommendation: recommendation },
        transaction: { authenticationStatus: status, amount: 250 },
      });
      // One code path for all: redirectHtml posts the result straight to the merchant.
      const fields = hiddenFields(payer.body.authentication.redirectHtml);
      expect(fields).toMatchObject({
        'order.id': order,
        'response.gatewayRecommendation': recommendation,
      });
      const decrypted = decryptEncryptedData(session.aes256Key, payer.body.encryptedData);
      expect(decrypted).toMatchObject({
        order: { id: order },
        transaction: { id: 'auth-1', authenticationStatus: status },
        authentication: { '3ds2': { transactionStatus: transStatus } },
      });
      expect(JSON.stringify(decrypted)).not.toContain(number);
    },
  );

  it.each(['5123450000000008', '2223000000000007', '4440000009900010', '371881733404002'])(
    'challenge card %s: AUTHENTICATION_PENDING with redirectHtml and the CUSTOMIZED acsUrl and cReq',
    async (number) => {
      const { payer } = await authenticate(number);
      expect(payer.body).toMatchObject({
        result: 'PENDING',
        authentication: {
          payerInteraction: 'REQUIRED',
          redirect: { customized: { '3DS': { acsUrl: expect.stringMatching(/\/payer\/acs\//) } } },
        },
        order: {
          status: 'AUTHENTICATION_INITIATED',
          authenticationStatus: 'AUTHENTICATION_PENDING',
        },
        response: { gatewayCode: 'PENDING' },
      });
      const { acsUrl, cReq } = payer.body.authentication.redirect.customized['3DS'];
      expect(JSON.parse(Buffer.from(cReq, 'base64url').toString())).toMatchObject({
        messageType: 'CReq',
      });
      expect(payer.body.authentication.redirectHtml).toContain(`action="${acsUrl}"`);
      expect(payer.body.encryptedData).toBeUndefined();
    },
  );

  describe('the challenge, answered on the ACS page, then AUTHORIZE with the proof', () => {
    async function challengeAnswered(choice: 'success' | 'failure' | 'cancel') {
      const flow = await authenticate('5123450000000008');
      const { acsUrl, cReq } = flow.payer.body.authentication.redirect.customized['3DS'];
      const page = await postForm(acsUrl, { creq: cReq });
      expect(page.status).toBe(200);
      expect(page.text).toContain('USD 250.00');
      expect(page.text).toContain('TESTMERCHANT');
      const result = await postForm(`${acsUrl}/result`, { choice });
      expect(result.status).toBe(200);
      expect(result.text).toContain('action="https://shop.example.com/3ds-return"');
      return { ...flow, acsUrl, posted: hiddenFields(result.text) };
    }
    const authorizeCiting = (order: string, tx = 'pay-1') =>
      under.api.put(`/order/${order}/transaction/${tx}`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '250.00', currency: 'USD' },
        sourceOfFunds: { provided: { card: card('5123450000000008') } },
        authentication: { transactionId: 'auth-1' },
      });

    it('success: the merchant decrypts the result and the authorization carries the proof', async () => {
      const { order, session, posted } = await challengeAnswered('success');
      expect(posted).toMatchObject({
        'order.id': order,
        'transaction.id': 'auth-1',
        result: 'SUCCESS',
        'response.gatewayRecommendation': 'PROCEED',
      });
      const decrypted = decryptEncryptedData(session.aes256Key, {
        ciphertext: posted['encryptedData.ciphertext'],
        nonce: posted['encryptedData.nonce'],
        tag: posted['encryptedData.tag'],
      });
      expect(decrypted.transaction).toEqual({
        authenticationStatus: 'AUTHENTICATION_SUCCESSFUL',
        id: 'auth-1',
      });
      const authorized = await authorizeCiting(order);
      expect(authorized.body).toMatchObject({
        result: 'SUCCESS',
        authentication: {
          transactionId: 'auth-1',
          '3ds': {
            acsEci: '02',
            authenticationToken: decrypted.authentication['3ds'].authenticationToken,
          },
          '3ds2': { transactionStatus: 'Y' },
        },
        order: { status: 'AUTHORIZED', authenticationStatus: 'AUTHENTICATION_SUCCESSFUL' },
        transaction: { type: 'AUTHORIZATION', authenticationStatus: 'AUTHENTICATION_SUCCESSFUL' },
      });
      const retrieved = await under.api.get(`/order/${order}`);
      expect(retrieved.body.transaction.map((t: any) => t.transaction.type)).toEqual([
        'AUTHENTICATION',
        'AUTHORIZATION',
      ]);
    });

    it.each([
      ['failure', 'DECLINED'],
      ['cancel', 'ABORTED'],
    ] as const)(
      '%s: AUTHENTICATION_FAILED, and an AUTHORIZE citing it is not sent to the acquirer',
      async (choice, gatewayCode) => {
        const { order, posted } = await challengeAnswered(choice);
        expect(posted).toMatchObject({
          result: 'FAILURE',
          'response.gatewayRecommendation': 'DO_NOT_PROCEED',
        });
        const authentication = await under.api.get(`/order/${order}/transaction/auth-1`);
        expect(authentication.body).toMatchObject({
          response: { gatewayCode },
          order: {
            status: 'AUTHENTICATION_UNSUCCESSFUL',
            authenticationStatus: 'AUTHENTICATION_FAILED',
          },
        });
        const refused = await authorizeCiting(order);
        expect(refused.status).toBe(201);
        expect(refused.body).toMatchObject({
          result: 'FAILURE',
          response: { gatewayCode: 'AUTHENTICATION_FAILED' },
          order: { status: 'FAILED', totalAuthorizedAmount: 0 },
        });
        expect(refused.body.transaction.acquirer).toBeUndefined();
      },
    );

    it('the challenge page cannot be answered twice', async () => {
      const { acsUrl } = await challengeAnswered('success');
      const again = await postForm(`${acsUrl}/result`, { choice: 'failure' });
      expect(again.status).toBe(409);
      const page = await postForm(acsUrl, { creq: 'x' });
      expect(page.status).toBe(409);
    });

    it('a forged or altered page link is refused', async () => {
      const { acsUrl } = await authenticate('5123450000000008').then((f) => ({
        acsUrl: f.payer.body.authentication.redirect.customized['3DS'].acsUrl as string,
      }));
      expect((await postForm(`${acsUrl}x`, { creq: 'x' })).status).toBe(404);
      expect(
        (await postForm(`${under.gateway.baseUrl}/payer/acs/abc.def`, { creq: 'x' })).status,
      ).toBe(404);
    });

    it('AUTHORIZE citing an authentication whose challenge is pending is refused', async () => {
      const { order } = await authenticate('5123450000000008');
      const refused = await authorizeCiting(order);
      expect(refused.status).toBe(400);
      expect(refused.body.error.field).toBe('authentication.transactionId');
    });
  });

  describe('retries and orderings', () => {
    it('each step of the authentication transaction answers its own retry byte for byte', async () => {
      const order = newOrder();
      const initiateBody = initiateAuthenticationBody('5123456789012346');
      const first = await under.api.put(`/order/${order}/transaction/a1`, initiateBody);
      const payer = await under.api.put(`/order/${order}/transaction/a1`, authenticatePayerBody());
      expect(payer.body.order.status).toBe('AUTHENTICATED');
      expect((await under.api.put(`/order/${order}/transaction/a1`, initiateBody)).text).toBe(
        first.text,
      );
      expect(
        (await under.api.put(`/order/${order}/transaction/a1`, authenticatePayerBody())).text,
      ).toBe(payer.text);
    });

    it('AUTHENTICATE_PAYER before INITIATE_AUTHENTICATION is refused naming order.id', async () => {
      const response = await under.api.put(
        `/order/${newOrder()}/transaction/a1`,
        authenticatePayerBody(),
      );
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field: 'order.id' });
    });

    it('AUTHENTICATE_PAYER on another transaction id than the initiated one is refused', async () => {
      const order = newOrder();
      await under.api.put(
        `/order/${order}/transaction/a1`,
        initiateAuthenticationBody('5123450000000008'),
      );
      const response = await under.api.put(
        `/order/${order}/transaction/a2`,
        authenticatePayerBody(),
      );
      expect(response.status).toBe(400);
      expect(response.body.error.field).toBe('transaction.id');
    });

    it('AUTHENTICATE_PAYER twice with different bodies is refused naming transaction.id', async () => {
      const { order } = await authenticate('5123450000000008');
      const again = await under.api.put(
        `/order/${order}/transaction/auth-1`,
        authenticatePayerBody('https://shop.example.com/other'),
      );
      expect(again.status).toBe(400);
      expect(again.body.error.field).toBe('transaction.id');
    });

    it('AUTHENTICATE_PAYER without redirectResponseUrl for a browser is refused as MISSING', async () => {
      const order = newOrder();
      await under.api.put(
        `/order/${order}/transaction/a1`,
        initiateAuthenticationBody('5123450000000008'),
      );
      const { authentication: _omitted, ...body } = authenticatePayerBody();
      const response = await under.api.put(`/order/${order}/transaction/a1`, body);
      expect(response.body.error).toMatchObject({
        field: 'authentication.redirectResponseUrl',
        validationType: 'MISSING',
      });
    });

    it('with no payer present (MERCHANT_REQUESTED) the challenge preference is ignored and no challenge is shown', async () => {
      const order = newOrder();
      await under.api.put(
        `/order/${order}/transaction/a1`,
        initiateAuthenticationBody('5123450000000008', {
          authentication: { acceptVersions: '3DS2', channel: 'MERCHANT_REQUESTED' },
        }),
      );
      const response = await under.api.put(`/order/${order}/transaction/a1`, {
        apiOperation: 'AUTHENTICATE_PAYER',
        authentication: {
          channel: 'MERCHANT_REQUESTED',
          challengePreference: 'CHALLENGE_MANDATED',
          psd2: { exemption: 'LOW_VALUE_PAYMENT' },
        },
        order: { amount: '10.00', currency: 'USD' },
      });
      expect(response.body).toMatchObject({
        authentication: {
          challengePreference: 'NO_CHALLENGE',
          psd2: { exemption: 'LOW_VALUE_PAYMENT' },
          payerInteraction: 'NOT_REQUIRED',
        },
        order: { authenticationStatus: 'AUTHENTICATION_FAILED' },
      });
    });

    it('the in-app SDK fields are validated and recorded, the SDK timeout rounded up to a minute', async () => {
      const order = newOrder();
      await under.api.put(
        `/order/${order}/transaction/a1`,
        initiateAuthenticationBody('5123456789012346'),
      );
      const sdk = {
        appId: 'a'.repeat(36),
        encryptedData: '{"jwe":"..."}',
        ephemeralPublicKey: '{"kty":"EC"}',
        referenceNumber: 'r'.repeat(32),
        transactionId: 't'.repeat(36),
        timeout: 301,
      };
      const bad = await under.api.put(
        `/order/${order}/transaction/a1`,
        authenticatePayerBody(undefined, {
          authentication: { '3ds2': { sdk: { ...sdk, appId: 'short' } } },
        }),
      );
      expect(bad.body.error.field).toBe('authentication.3ds2.sdk.appId');
      const response = await under.api.put(
        `/order/${order}/transaction/a1`,
        authenticatePayerBody(undefined, {
          authentication: {
            redirectResponseUrl: 'https://shop.example.com/3ds-return',
            '3ds2': { sdk },
          },
        }),
      );
      expect(response.body.authentication['3ds2'].sdk).toEqual({
        appId: sdk.appId,
        referenceNumber: sdk.referenceNumber,
        transactionId: sdk.transactionId,
        timeout: 360,
      });
    });
  });

  describe('payment sessions', () => {
    it('create, update and retrieve: 31-35 character id, 10 character version, masked card, no security code', async () => {
      const created = await under.api.post('/session');
      expect(created.status).toBe(201);
      const { id, version, aes256Key } = created.body.session;
      expect(id).toMatch(/^[\x20-\x7e]{31,35}$/);
      expect(version).toHaveLength(10);
      expect(Buffer.from(aes256Key, 'base64')).toHaveLength(32);
      const updated = await under.api.put(`/session/${id}`, {
        sourceOfFunds: { provided: { card: card('5123450000000008') } },
        order: { amount: '12.00', currency: 'USD' },
        session: { version },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.session.version).not.toBe(version);
      const retrieved = await under.api.get(`/session/${id}`);
      expect(retrieved.body).toMatchObject({
        session: { id, version: updated.body.session.version },
        sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
        order: { amount: '12.00' },
      });
      expect(retrieved.text).not.toContain('5123450000000008');
      expect(retrieved.text).not.toContain('securityCode');
      expect(retrieved.body.session.aes256Key).toBeUndefined();
    });

    it('request fields override session fields', async () => {
      const created = await under.api.post('/session');
      const { id } = created.body.session;
      await under.api.put(`/session/${id}`, {
        sourceOfFunds: { provided: { card: card('5123450000000008') } },
        order: { amount: '12.00', currency: 'USD' },
      });
      const order = newOrder();
      const response = await under.api.put(`/order/${order}/transaction/t1`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '30.00', currency: 'USD' },
        session: { id },
      });
      expect(response.body).toMatchObject({
        result: 'SUCCESS',
        transaction: { amount: 30 },
        sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
        response: { cardSecurityCode: { gatewayCode: 'MATCH' } },
      });
    });

    it('a stale session.version is refused with INVALID_REQUEST naming session.version', async () => {
      const { id } = await sessionWithCard('5123450000000008');
      const stale = await under.api.put(`/order/${newOrder()}/transaction/a1`, {
        ...initiateAuthenticationBody('5123450000000008'),
        sourceOfFunds: undefined,
        session: { id, version: '0000000000' },
      });
      expect(stale.status).toBe(400);
      expect(stale.body.error).toMatchObject({
        cause: 'INVALID_REQUEST',
        field: 'session.version',
      });
      const update = await under.api.put(`/session/${id}`, { session: { version: '0000000000' } });
      expect(update.body.error.field).toBe('session.version');
    });

    it('a session is used for one order only; a second order is refused naming session.id', async () => {
      const { id } = await sessionWithCard('5123450000000008');
      const first = await under.api.put(`/order/${newOrder()}/transaction/t1`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '5.00', currency: 'USD' },
        session: { id },
      });
      expect(first.body.result).toBe('SUCCESS');
      const reused = await under.api.put(`/order/${newOrder()}/transaction/t1`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '5.00', currency: 'USD' },
        session: { id },
      });
      expect(reused.status).toBe(400);
      expect(reused.body.error.field).toBe('session.id');
    });

    it('the security code is used once: a later payment from the session has none', async () => {
      const { id } = await sessionWithCard('5123450000000008');
      const order = newOrder();
      const first = await under.api.put(`/order/${order}/transaction/t1`, {
        apiOperation: 'VERIFY',
        order: { currency: 'USD' },
        session: { id },
      });
      expect(first.body.response.cardSecurityCode.gatewayCode).toBe('MATCH');
      const second = await under.api.put(`/order/${order}/transaction/t2`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '5.00', currency: 'USD' },
        session: { id },
      });
      expect(second.body.response.cardSecurityCode.gatewayCode).toBe('NOT_PRESENT');
    });

    it('an unknown session is refused naming session.id, and 404 on its own path', async () => {
      const missing = 'SESSION0000000000000000000000000';
      const response = await under.api.put(`/order/${newOrder()}/transaction/a1`, {
        ...initiateAuthenticationBody('5123450000000008'),
        sourceOfFunds: undefined,
        session: { id: missing },
      });
      expect(response.body.error.field).toBe('session.id');
      expect((await under.api.get(`/session/${missing}`)).status).toBe(404);
    });

    it('a malformed field is reported before the session is looked up', async () => {
      const response = await under.api.put(`/order/${newOrder()}/transaction/a1`, {
        ...initiateAuthenticationBody('5123450000000008'),
        sourceOfFunds: undefined,
        session: { id: 'SESSION0000000000000000000000000', version: 'short' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        cause: 'INVALID_REQUEST',
        field: 'session.version',
      });
    });

    it('another merchant cannot see or use the session', async () => {
      const { id } = await sessionWithCard('5123450000000008');
      const other = merchantClient(under.gateway, 'TESTOTHER');
      expect((await other.get(`/session/${id}`)).status).toBe(404);
      const used = await other.put(`/order/${newOrder()}/transaction/t1`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '5.00', currency: 'USD' },
        session: { id },
      });
      expect(used.body.error.field).toBe('session.id');
    });

    it('no card number is written in clear to the event store or the session store', async () => {
      await authenticate('5555555555000018');
      for (const file of ['events.db', 'events.db-wal', 'sessions.db', 'sessions.db-wal']) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(join(under.gateway.dataDir, file));
        } catch {
          continue;
        }
        expect(bytes.includes('5555555555000018')).toBe(false);
      }
      expect(under.gateway.output()).not.toContain('5555555555000018');
    });
  });
});

describe('session expiry', () => {
  let shortLived: RunningGateway;
  beforeAll(async () => {
    shortLived = await startGateway(undefined, { GATEWAY_SESSION_TTL: '1' });
  });
  afterAll(() => shortLived.stop());

  it('an expired session is refused naming session.id, and is gone', async () => {
    const client = merchantClient(shortLived);
    const { id } = (await client.post('/session')).body.session;
    await client.put(`/session/${id}`, {
      sourceOfFunds: { provided: { card: card('5123450000000008') } },
    });
    await new Promise((done) => setTimeout(done, 1_200));
    const response = await client.put(`/order/${newOrder()}/transaction/a1`, {
      ...initiateAuthenticationBody('5123450000000008'),
      sourceOfFunds: undefined,
      session: { id },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ field: 'session.id' });
    expect(response.body.error.explanation).toMatch(/expired/);
    expect((await client.get(`/session/${id}`)).status).toBe(404);
  });
});
