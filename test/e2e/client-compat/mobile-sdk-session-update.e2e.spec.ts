import {
  basicAuth,
  MERCHANTS,
  merchantClient,
  orderIds,
  useGateway,
  type MerchantId,
} from '../../support/gateway-process';
import { rawRequest, type RawAnswer } from '../../support/raw-http';

/**
 * Issue 14, point 3: the mobile SDKs (Android, iOS) update a payment session from the payer's
 * device, which never holds the API password: `PUT …/session/{id}` at API version 50 or above,
 * authenticated as `merchant.{merchantId}` with the session id as the password (the Android SDK
 * as Basic credentials, the iOS SDK as the same base64 text without the scheme), adding
 * `device.browser` (the SDK's User-Agent) to the app's fields. The merchant's server created the
 * session with the API password and pays with it afterwards.
 *
 * Three refused passwords (or session ids, from one address) lock here, for ten minutes.
 */
const VERSION = 61;
const ANDROID = 'Gateway-Android-SDK/1.1.6';
const IOS = 'Gateway-iOS-SDK/1.1.3';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const INVALID_CREDENTIALS = {
  result: 'ERROR',
  error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
};

/** The card fields a payment app hands to the SDK, and what the SDK adds. */
const sdkBody = (userAgent: string) => ({
  sourceOfFunds: {
    provided: {
      card: { number: '5123450000000008', securityCode: '100', expiry: { month: '1', year: '39' } },
    },
  },
  device: { browser: userAgent },
});

describe('the mobile SDKs update a session with the session id as the password', () => {
  const under = useGateway({ GATEWAY_AUTH_MAX_FAILURES: '3', GATEWAY_AUTH_LOCKOUT: '600' });
  const nextOrder = orderIds('mobile-sdk');
  const server = (merchant: MerchantId = 'TESTMERCHANT', version = VERSION) =>
    merchantClient(under.gateway, merchant, version);
  const url = (rest: string, merchant?: MerchantId, version?: number) =>
    server(merchant, version).url(rest);

  /** The merchant's server makes a session for the app (API password). */
  const newSession = async (merchant: MerchantId = 'TESTMERCHANT'): Promise<string> => {
    const created = await server(merchant).post('/session');
    expect(created.status).toBe(201);
    return created.body.session.id;
  };

  /** The SDK's update, as the device sends it. */
  const deviceUpdate = (
    sessionId: string,
    options: {
      merchant?: MerchantId;
      authorization?: string;
      version?: number;
      from?: string;
      userAgent?: string;
    } = {},
  ): Promise<RawAnswer> => {
    const { merchant = 'TESTMERCHANT', userAgent = ANDROID } = options;
    return rawRequest(
      url(`/session/${sessionId}`, merchant, options.version),
      {
        method: 'PUT',
        headers: {
          authorization: options.authorization ?? basicAuth(merchant, sessionId),
          'content-type': 'application/json',
          'user-agent': userAgent,
        },
        localAddress: options.from,
      },
      JSON.stringify(sdkBody(userAgent)),
    );
  };

  const refused = (answer: RawAnswer) =>
    answer.status === 401 &&
    answer.headers['www-authenticate'] === 'Basic realm="gateway"' &&
    JSON.stringify(answer.body) === JSON.stringify(INVALID_CREDENTIALS);

  /** Whether the merchant's API password is locked out from `from` (its GET of no order is 404 otherwise). */
  const apiPasswordLocked = async (from: string, merchant: MerchantId = 'TESTMERCHANT') => {
    const answer = await rawRequest(url('/order/no-such-order', merchant), {
      method: 'GET',
      headers: { authorization: basicAuth(merchant, MERCHANTS[merchant]) },
      localAddress: from,
    });
    return answer.status === 401;
  };

  it('Android: the device stores the card, then the merchant authorizes with the session', async () => {
    const sessionId = await newSession();
    const updated = await deviceUpdate(sessionId, { from: '127.0.2.1' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      result: 'SUCCESS',
      merchant: 'TESTMERCHANT',
      session: { id: sessionId, updateStatus: 'SUCCESS' },
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
      device: { browser: ANDROID },
    });
    expect(JSON.stringify(updated.body)).not.toMatch(/securityCode|aes256Key/);

    const orderId = nextOrder();
    const paid = await server().put(`/order/${orderId}/transaction/1`, {
      apiOperation: 'AUTHORIZE',
      order: { amount: '25.00', currency: 'USD' },
      session: { id: sessionId },
      sourceOfFunds: { type: 'CARD' },
    });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({
      result: 'SUCCESS',
      response: { gatewayCode: 'APPROVED' },
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
    });
  });

  it("iOS: the same update with the credentials' base64 sent without the Basic scheme", async () => {
    const sessionId = await newSession();
    const authorization = b64(`merchant.TESTMERCHANT:${sessionId}`);
    const updated = await deviceUpdate(sessionId, {
      authorization,
      userAgent: IOS,
      from: '127.0.2.2',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.device).toEqual({ browser: IOS });
  });

  it("refuses a wrong session id 401 with the challenge; it never counts towards the API password's lockout", async () => {
    const from = '127.0.2.3';
    const wrong = (i: number) => `SESSION0000000000000000000000WRONG${i}`;
    for (let i = 0; i < 3; i++) expect(refused(await deviceUpdate(wrong(i), { from }))).toBe(true);
    // Nor would a bare base64 password of anything else pass for a session id.
    expect(
      refused(
        await deviceUpdate(wrong(0), {
          from: '127.0.2.4',
          authorization: b64('merchant.TESTMERCHANT:guess'),
        }),
      ),
    ).toBe(true);
    // The API password is not locked out, from that address or any other...
    expect(await apiPasswordLocked(from)).toBe(false);
    expect(await apiPasswordLocked('127.0.2.5')).toBe(false);
    // ...but that address may offer no more session ids for a while, a real one included.
    const sessionId = await newSession();
    const locked = await deviceUpdate(sessionId, { from });
    expect(refused(locked) && Number(locked.headers['retry-after']) > 500).toBe(true);
    expect((await deviceUpdate(sessionId, { from: '127.0.2.6' })).status).toBe(200);
  });

  it("takes a session id for that session only, never as the API password's stand-in elsewhere", async () => {
    const merchant = 'TESTOTHER';
    const sessionId = await newSession(merchant);
    const asSession = { authorization: basicAuth(merchant, sessionId) };
    const other = await newSession(merchant);
    const tries: RawAnswer[] = [
      // Another session's id, retrieving the session, and paying: refused.
      await deviceUpdate(other, { merchant, ...asSession, from: '127.0.2.7' }),
      await rawRequest(url(`/session/${sessionId}`, merchant), {
        method: 'GET',
        headers: asSession,
        localAddress: '127.0.2.8',
      }),
      await rawRequest(
        url(`/order/${nextOrder()}/transaction/1`, merchant),
        { method: 'PUT', headers: asSession, localAddress: '127.0.2.9' },
        JSON.stringify({
          apiOperation: 'AUTHORIZE',
          order: { amount: '1.00', currency: 'USD' },
          session: { id: sessionId },
        }),
      ),
    ];
    expect(tries.every(refused)).toBe(true);
    // Those were three wrong API passwords: the merchant's API password is locked out...
    expect(await apiPasswordLocked('127.0.2.10', merchant)).toBe(true);
    // ...which does not stop its payers' devices, who never use it.
    expect((await deviceUpdate(sessionId, { merchant, from: '127.0.2.10' })).status).toBe(200);
  });

  it("refuses another merchant's session, and below version 50 the session id is a wrong API password", async () => {
    const merchant = 'LIVEMERCHANT';
    const sessionId = await newSession(merchant);
    // LIVEMERCHANT's session offered to TESTMERCHANT's path: no session of TESTMERCHANT.
    expect(refused(await deviceUpdate(sessionId, { from: '127.0.2.11' }))).toBe(true);
    for (const from of ['127.0.3.1', '127.0.3.2', '127.0.3.3'])
      expect(refused(await deviceUpdate(sessionId, { merchant, version: 49, from }))).toBe(true);
    expect(await apiPasswordLocked('127.0.3.4', merchant)).toBe(true);
    expect(await apiPasswordLocked('127.0.3.4')).toBe(false);
  });
});

describe('an expired session takes no update from the device', () => {
  const under = useGateway({ GATEWAY_SESSION_TTL: '1' });

  it('refuses the session id once the session has expired', async () => {
    const api = merchantClient(under.gateway, 'TESTMERCHANT', VERSION);
    const sessionId = (await api.post('/session')).body.session.id as string;
    const update = () =>
      api.put(`/session/${sessionId}`, sdkBody(ANDROID), {
        authorization: basicAuth('TESTMERCHANT', sessionId),
      });
    expect((await update()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await update();
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Basic realm="gateway"');
  });
});
