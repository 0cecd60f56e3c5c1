import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CardVault } from '../../apps/gateway/src/card-vault/card-vault';
import { SqliteSecretStore } from '../../apps/gateway/src/secrets/sqlite-secret-store';
import { readKeyFile } from '../../apps/gateway/src/config/key-file';
import { AesGcmKeyring } from '../../apps/gateway/src/crypto/aes-gcm-keyring';
import { describeWithOpenssl, makeTestPki, type TestPki } from '../support/certificates';
import {
  basicAuth,
  makeDataDir,
  merchantClient,
  orderIds,
  startGateway,
  type ApiResponse,
  type RunningGateway,
} from '../support/gateway-process';
import {
  ACH_ACCOUNT,
  PROVIDER_C_ACCOUNT,
  TEST_CARDS,
  THREE_DS_CARDS,
} from '../support/payment-data';
import { authenticatePayerBody } from '../support/three-d-secure';

/**
 * Card and bank data at rest: a representative mix of operations with every test card of the
 * behaviour notes (with security codes), bank accounts, IBANs and gift cards, through a real
 * gateway over TLS, then every file of the data directory (raw bytes, WAL included) and every
 * line the gateway logged (at trace level) is searched for a full number or a security code.
 * Then the attacks: card numbers, in any spacing, where no card field is (ids of the path, custom
 * field names and values, providerC.bankIdentifier, correlationId, X-Request-Id, a session's free
 * text); each is refused, and no card number in any spacing is found in the data directory, the
 * log or any response body.
 */
const CARDS = [...TEST_CARDS, ...THREE_DS_CARDS];
/** A distinctive security code per card (4 digits on 15-digit cards), so each can be searched for. */
const codeOf = (number: string) =>
  String(700 + CARDS.indexOf(number) * 13).padStart(number.length === 15 ? 4 : 3, '9');

const ACH = ACH_ACCOUNT;
const PROVIDER_C = PROVIDER_C_ACCOUNT;
const GIFT_CARD = { number: '6012345678904821', pin: '4827' };

/** What must never be found at rest: quoted so that a code is not found inside other digits. */
const NEEDLES = [
  ...CARDS,
  ...CARDS.map((number) => `"${codeOf(number)}"`),
  '"securityCode"',
  ACH.bankAccountNumber,
  PROVIDER_C.bankAccountNumber,
  PROVIDER_C.iban,
  GIFT_CARD.number,
  `"${GIFT_CARD.pin}"`,
];

const card = (number: string, expiry = { month: '1', year: '39' }) => ({
  number,
  expiry,
  securityCode: codeOf(number),
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A card number with up to three separators (any the gateway reads as spacing) between digits. */
const inAnySpacing = (number: string) =>
  new RegExp(number.split('').join('[\\s\\-._/\\u00a0\\u2010-\\u2015]{0,3}'));
const CARD_PATTERNS = CARDS.map((number) => ({ number, pattern: inAnySpacing(number) }));

/** Every card number, in any spacing, found in a text, as `number in name`. */
function cardsIn(name: string, text: string): string[] {
  return CARD_PATTERNS.filter(({ pattern }) => pattern.test(text)).map(
    ({ number }) => `${number} in ${name}`,
  );
}

/** Every needle found, and every card in any spacing (bytes read as latin1), as `needle in file`. */
function findings(sources: Array<[string, Buffer]>): string[] {
  return sources.flatMap(([name, bytes]) => [
    ...NEEDLES.filter((needle) => bytes.includes(needle)).map((needle) => `${needle} in ${name}`),
    ...cardsIn(name, bytes.toString('latin1')),
  ]);
}

/** Each attack refused with a field error, and the field it names. */
const ATTACK_REFUSALS: Record<string, string> = {
  'a card number as the order id': 'order.id',
  'a card number with spaces as the order id': 'order.id',
  'a card number as the order id of a GET': 'order.id',
  'a card number with dashes as the transaction id': 'transaction.id',
  'a card number as an order.custom name': 'order.custom.xxxxxxxxxxxxxxxx',
  'a card number in mixed spacing as an order.custom value': 'order.custom.note',
  'a card number as a risk.custom name': 'risk.custom.xxxxxxxxxxxxxxxx',
  'a card number in providerC.bankIdentifier': 'sourceOfFunds.provided.providerC.bankIdentifier',
  'a card number with spaces in correlationId': 'correlationId',
  "a card number with dots in a session's free text": 'order.description',
  'a card number in the session id of the path': 'session.id',
  'an order id too long': 'order.id',
};

describeWithOpenssl('no card number or security code at rest', () => {
  let pki: TestPki;
  let gateway: RunningGateway;
  const newOrder = orderIds('rest');
  const responses: ApiResponse[] = [];
  let attacked: Record<string, ApiResponse>;

  beforeAll(async () => {
    pki = makeTestPki();
    const own = pki.client('TESTMERCHANT');
    const dataDir = await makeDataDir({
      TESTMERCHANT: {
        certificate: { fingerprint256: own.fingerprint256 },
        permissions: ['UNMASK'],
        masking: { cardNumber: '8.4' },
      },
    });
    gateway = await startGateway(dataDir, {
      GATEWAY_TLS_CERT: pki.server.certFile,
      GATEWAY_TLS_KEY: pki.server.keyFile,
      GATEWAY_TLS_CLIENT_CA: pki.ca.certFile,
      GATEWAY_LOG_LEVEL: 'trace',
    });
    const tls = { ca: pki.ca.cert };
    const client = (version: number | string, certificate: boolean) =>
      recording(
        merchantClient(gateway, 'TESTMERCHANT', version as number, {
          tls: certificate ? { ...tls, cert: own.cert, key: own.key } : tls,
          authorization: certificate ? null : basicAuth('TESTMERCHANT', 'password-of-testmerchant'),
        }),
        responses,
      );
    await runOperations(client(100, true), client(100, false), newOrder);
    attacked = await runAttacks(client(100, false), newOrder, (version) => client(version, false));
  }, 180_000);
  afterAll(() => gateway?.stop());

  it.each(Object.entries(ATTACK_REFUSALS))('refuses %s, naming %s', (attack, field) => {
    const response = attacked[attack];
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ cause: 'INVALID_REQUEST', field });
  });

  it('echoes no card number in an explanation, whatever it quotes', () => {
    for (const attack of ['an order id too long', 'the API version'])
      expect(attacked[attack]).toMatchObject({ status: 400 });
    expect(cardsIn('the explanations', JSON.stringify(attacked))).toEqual([]);
  });

  it('replaces an X-Request-Id holding a card number', () => {
    const response = attacked['a card number in X-Request-Id'];
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('in no response body', () => {
    expect(responses.length).toBeGreaterThan(100);
    expect(responses.flatMap((r, i) => cardsIn(`response ${i}`, r.text))).toEqual([]);
  });

  it('nowhere in the data directory while running (WAL included)', () => {
    const files = filesUnder(gateway.dataDir);
    expect(files.some((f) => f.endsWith('events.db-wal'))).toBe(true);
    const contents = files.map((file): [string, Buffer] => [file, readFileSync(file)]);
    // The scan reads what was recorded: masked numbers and sealed bank data are there.
    const all = Buffer.concat(contents.map(([, bytes]) => bytes));
    expect(all.includes('51234500xxxx0008')).toBe(true);
    expect(all.includes('"ach.bankAccountNumber"')).toBe(true);
    expect(findings(contents)).toEqual([]);
  });

  it('in no line the gateway logged', () => {
    const log = gateway.output();
    expect(log).toContain('"apiOperation":"AUTHENTICATE_PAYER"');
    // The refused correlationId is still logged, its card number taken out.
    expect(log).toContain('"correlationId":"ref [redacted]"');
    expect(findings([['the log', Buffer.from(log)]])).toEqual([]);
  });

  it('nowhere in the data directory once stopped (WAL checkpointed)', async () => {
    expect(await gateway.stop()).toBe(0);
    const contents = filesUnder(gateway.dataDir).map((file): [string, Buffer] => [
      file,
      readFileSync(file),
    ]);
    expect(findings(contents)).toEqual([]);
    expect(findings([['the log', Buffer.from(gateway.output())]])).toEqual([]);
  });

  it("keeps the kept tokens' numbers in the vault, and no deleted token's, even with the data key", async () => {
    const kept = CARDS.filter((number) => !DELETED_TOKEN_CARDS.includes(number));
    expect((await numbersOpenedWithDataKey(gateway.dataDir)).sort()).toEqual([...kept].sort());
  });
});

type Client = ReturnType<typeof merchantClient>;

/** Cards whose token is deleted after paying with it: the others' tokens are kept. */
const DELETED_TOKEN_CARDS = CARDS.filter((_, i) => i % 2 === 0);

/** Save the card as a token, pay with it and a security code, and delete it for every other card. */
async function payWithToken(api: Client, number: string, order: string): Promise<void> {
  const { expiry } = card(number);
  const saved = await api.post('/token', {
    sourceOfFunds: { type: 'CARD', provided: { card: { number, expiry } } },
  });
  if (saved.status !== 201) throw new Error(`expected 201, got ${saved.text}`);
  const paid = await api.put(`/order/${order}/transaction/t1`, {
    apiOperation: 'PAY',
    order: { amount: '20.00', currency: 'USD' },
    sourceOfFunds: {
      type: 'CARD',
      token: saved.body.token,
      provided: { card: { securityCode: codeOf(number) } },
    },
  });
  if (paid.status !== 201) throw new Error(`expected 201, got ${paid.text}`);
  if (DELETED_TOKEN_CARDS.includes(number)) {
    const deleted = await api.delete(`/token/${saved.body.token}`);
    if (deleted.status !== 200) throw new Error(`expected 200, got ${deleted.text}`);
  }
}

/** Every card number the vault gives back with the data key (bank-data.key), row by row. */
async function numbersOpenedWithDataKey(dataDir: string): Promise<string[]> {
  const secrets = new SqliteSecretStore(join(dataDir, 'vault.db'));
  const ids = secrets.database.prepare('SELECT id FROM secrets').pluck().all() as string[];
  const vault = new CardVault(
    secrets,
    AesGcmKeyring.ofKey(readKeyFile(join(dataDir, 'bank-data.key'))!),
  );
  const numbers = await Promise.all(
    ids.map(async (id) => {
      const [, merchantId, token, incarnation] = id.split(':');
      const slot = { merchantId, token, incarnation: Number(incarnation) };
      return (await vault.get(slot)) ?? 'unopened';
    }),
  );
  await secrets.close();
  return numbers;
}

/** The client, keeping every response it gets. */
function recording(client: Client, into: ApiResponse[]): Client {
  const kept = <T extends ApiResponse>(response: T) => (into.push(response), response);
  return {
    ...client,
    put: async (path, body, headers) => kept(await client.put(path, body, headers)),
    get: async (path, headers) => kept(await client.get(path, headers)),
    post: async (path, body) => kept(await client.post(path, body)),
  };
}

/** Card numbers where no card field is: each as a merchant's integration (or an attacker) sends it. */
async function runAttacks(
  api: Client,
  newOrder: () => string,
  atVersion: (version: string) => Client,
): Promise<Record<string, ApiResponse>> {
  const authorize = (extra: object = {}) => ({
    apiOperation: 'AUTHORIZE',
    order: { amount: '10.00', currency: 'USD' },
    sourceOfFunds: { type: 'CARD', provided: { card: card(TEST_CARDS[0]) } },
    ...extra,
  });
  const withOrder = (order: object) =>
    authorize({ order: { amount: '10.00', currency: 'USD', ...order } });
  const session = (await api.post('/session')).body.session.id as string;
  return {
    'a card number as the order id': await api.put(
      '/order/5123450000000008/transaction/t1',
      authorize(),
    ),
    'a card number with spaces as the order id': await api.put(
      '/order/2223%200000%200000%200007/transaction/t1',
      authorize(),
    ),
    'a card number as the order id of a GET': await api.get('/order/5111111111111118'),
    'a card number with dashes as the transaction id': await api.put(
      `/order/${newOrder()}/transaction/4508-7500-1574-1019`,
      authorize(),
    ),
    'a card number as an order.custom name': await api.put(
      `/order/${newOrder()}/transaction/t1`,
      withOrder({ custom: { '4012000033330026': 'x' } }),
    ),
    'a card number in mixed spacing as an order.custom value': await api.put(
      `/order/${newOrder()}/transaction/t1`,
      withOrder({ custom: { note: 'card 2223 0000-0000.0023' } }),
    ),
    'a card number as a risk.custom name': await api.put(
      `/order/${newOrder()}/transaction/t1`,
      authorize({ risk: { custom: { '5123450000000008': '1' } } }),
    ),
    'a card number in providerC.bankIdentifier': await api.put(
      `/order/${newOrder()}/transaction/p1`,
      {
        apiOperation: 'PAY',
        order: { amount: '12.00', currency: 'USD' },
        sourceOfFunds: {
          type: 'PROVIDER_C',
          provided: { providerC: { ...PROVIDER_C, bankIdentifier: '371881634498004' } },
        },
      },
    ),
    'a card number with spaces in correlationId': await api.put(
      `/order/${newOrder()}/transaction/t1`,
      authorize({ correlationId: 'ref 4508 7500 1574 1019' }),
    ),
    'a card number in X-Request-Id': await api.put(
      `/order/${newOrder()}/transaction/t1`,
      authorize(),
      {
        'x-request-id': '5123-4500-0000-0008',
      },
    ),
    "a card number with dots in a session's free text": await api.put(`/session/${session}`, {
      order: { description: 'card 4012.0000.3333.0026' },
    }),
    'the session it was typed into': await api.get(`/session/${session}`),
    'a card number in the session id of the path': await api.get(
      '/session/SESSION-5123-4500-0000-0008-ABCDEFGH',
    ),
    'an order id too long': await api.put(
      `/order/${encodeURIComponent('ref 5123 4500 0000 0008 and then some more text')}/transaction/t1`,
      authorize(),
    ),
    'the API version': await atVersion('5123-4500-0000-0008').get('/order/any'),
  };
}

/** Every kind of operation that carries card or bank data, the refusals included. */
async function runOperations(cert: Client, basic: Client, newOrder: () => string): Promise<void> {
  const created = (response: { status: number; text: string }) => {
    if (response.status !== 201) throw new Error(`expected 201, got ${response.text}`);
  };
  for (const number of CARDS) {
    const api = CARDS.indexOf(number) % 2 ? cert : basic;
    await payWithToken(api, number, newOrder());
    const order = newOrder();
    const authorize = {
      apiOperation: 'AUTHORIZE',
      order: { amount: '100.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', provided: { card: card(number) } },
    };
    created(await api.put(`/order/${order}/transaction/a1`, authorize));
    created(await api.put(`/order/${order}/transaction/a1`, authorize)); // a retry
    created(
      await api.put(`/order/${order}/transaction/c1`, {
        apiOperation: 'CAPTURE',
        transaction: { amount: '60.00', currency: 'USD' },
      }),
    );
    created(
      await api.put(`/order/${order}/transaction/r1`, {
        apiOperation: 'REFUND',
        transaction: { amount: '10.00', currency: 'USD' },
      }),
    );
    await api.get(`/order/${order}`);
    created(
      await api.put(`/order/${newOrder()}/transaction/p1`, {
        ...authorize,
        apiOperation: 'PAY',
        sourceOfFunds: { provided: { card: card(number, { month: '5', year: '39' }) } },
      }),
    );
    created(
      await api.put(`/order/${newOrder()}/transaction/v1`, {
        apiOperation: 'VERIFY',
        order: { currency: 'USD' },
        sourceOfFunds: { type: 'CARD', provided: { card: card(number) } },
      }),
    );
    created(
      await api.put(`/order/${newOrder()}/transaction/sr1`, {
        apiOperation: 'REFUND',
        transaction: { amount: '5.00', currency: 'USD' },
        sourceOfFunds: { type: 'CARD', provided: { card: card(number) } },
      }),
    );
    // 3-D Secure with the card in the request, then in a session.
    const authOrder = newOrder();
    created(
      await api.put(`/order/${authOrder}/transaction/3ds`, {
        apiOperation: 'INITIATE_AUTHENTICATION',
        authentication: { acceptVersions: '3DS2', channel: 'PAYER_BROWSER' },
        order: { currency: 'USD' },
        sourceOfFunds: { provided: { card: card(number) } },
      }),
    );
    await api.put(
      `/order/${authOrder}/transaction/3ds`,
      authenticatePayerBody(undefined, { sourceOfFunds: { provided: { card: card(number) } } }),
    );
    const session = (await api.post('/session')).body.session.id as string;
    await api.put(`/session/${session}`, { sourceOfFunds: { provided: { card: card(number) } } });
    await api.get(`/session/${session}`);
    created(
      await api.put(`/order/${newOrder()}/transaction/a1`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '20.00', currency: 'USD' },
        session: { id: session },
      }),
    );
    // Refusals: the number in a free-text field, and a bad expiry.
    await api.put(`/order/${newOrder()}/transaction/a1`, {
      ...authorize,
      order: { ...authorize.order, description: `card ${number}` },
    });
    await api.put(`/order/${newOrder()}/transaction/a1`, {
      ...authorize,
      sourceOfFunds: { provided: { card: card(number, { month: '13', year: '39' }) } },
    });
  }
  const unmask = { responseControls: { sensitiveData: 'UNMASK' } };
  const pay = (sourceOfFunds: object) => ({
    apiOperation: 'PAY',
    order: { amount: '12.00', currency: 'USD' },
    sourceOfFunds,
    ...unmask,
  });
  const achPay = await cert.put(
    `/order/${newOrder()}/transaction/p1`,
    pay({ type: 'ACH', provided: { ach: ACH } }),
  );
  created(achPay);
  if (achPay.body.sourceOfFunds.provided.ach.bankAccountNumber !== ACH.bankAccountNumber)
    throw new Error('UNMASK did not return the account number');
  created(
    await cert.put(
      `/order/${newOrder()}/transaction/p1`,
      pay({ type: 'PROVIDER_C', provided: { providerC: PROVIDER_C } }),
    ),
  );
  await basic.put(
    `/order/${newOrder()}/transaction/p1`,
    pay({ type: 'ACH', provided: { ach: ACH } }),
  );
  created(
    await basic.put(`/order/${newOrder()}/transaction/g1`, {
      apiOperation: 'PAY',
      order: { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'GIFT_CARD', provided: { giftCard: GIFT_CARD } },
    }),
  );
  created(
    await cert.put(`/order/${newOrder()}/transaction/bp1`, {
      apiOperation: 'INITIATE_BROWSER_PAYMENT',
      browserPayment: { operation: 'PAY', returnUrl: 'https://shop.example.com/return' },
      order: { amount: '80.00', currency: 'EUR' },
      sourceOfFunds: { type: 'PROVIDER_C', provided: { providerC: PROVIDER_C } },
      ...unmask,
    }),
  );
}
