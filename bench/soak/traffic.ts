import { Agent, request } from 'node:http';

/** One request of a flow and the status it must get; anything else is an error. */
export interface Step {
  readonly method: 'GET' | 'PUT';
  readonly path: string;
  readonly body?: unknown;
  readonly expect: number;
  /** Sent with the wrong password from another loopback address: expected refusals. */
  readonly badCredentials?: boolean;
}

const card = (expiry: { month: string; year: string }) => ({
  type: 'CARD',
  provided: { card: { number: '5123450000000008', expiry, securityCode: '100' } },
});
const APPROVED = { month: '1', year: '39' };
const DECLINED = { month: '5', year: '39' };
const authorize = (expiry = APPROVED) => ({
  apiOperation: 'AUTHORIZE',
  order: { amount: '100.00', currency: 'USD', reference: 'soak' },
  customer: { email: 'payer@example.com' },
  sourceOfFunds: card(expiry),
});
const money = (apiOperation: string, amount: string) => ({
  apiOperation,
  transaction: { amount, currency: 'USD' },
});

/**
 * The mixed traffic: each flow is a short merchant session on a new order. Weights are flows per
 * 100; expected refusals (400, 404, 401) are part of the mix and are not errors.
 */
const FLOWS: ReadonlyArray<{ weight: number; steps: (order: string) => Step[] }> = [
  {
    weight: 40, // authorize, capture part, refund part of that, read the order
    steps: (o) => [
      { method: 'PUT', path: `/order/${o}/transaction/1`, body: authorize(), expect: 201 },
      {
        method: 'PUT',
        path: `/order/${o}/transaction/2`,
        body: money('CAPTURE', '60.00'),
        expect: 201,
      },
      {
        method: 'PUT',
        path: `/order/${o}/transaction/3`,
        body: money('REFUND', '10.00'),
        expect: 201,
      },
      { method: 'GET', path: `/order/${o}`, expect: 200 },
    ],
  },
  {
    weight: 15, // authorize, then void it
    steps: (o) => [
      { method: 'PUT', path: `/order/${o}/transaction/1`, body: authorize(), expect: 201 },
      {
        method: 'PUT',
        path: `/order/${o}/transaction/2`,
        body: { apiOperation: 'VOID', transaction: { targetTransactionId: '1' } },
        expect: 201,
      },
    ],
  },
  {
    weight: 15, // a decline, read back as a transaction
    steps: (o) => [
      { method: 'PUT', path: `/order/${o}/transaction/1`, body: authorize(DECLINED), expect: 201 },
      { method: 'GET', path: `/order/${o}/transaction/1`, expect: 200 },
    ],
  },
  {
    weight: 10, // card verification
    steps: (o) => [
      {
        method: 'PUT',
        path: `/order/${o}/transaction/1`,
        body: { apiOperation: 'VERIFY', order: { currency: 'USD' }, sourceOfFunds: card(APPROVED) },
        expect: 201,
      },
    ],
  },
  {
    weight: 10, // a retry gets the original answer
    steps: (o) => [
      { method: 'PUT', path: `/order/${o}/transaction/1`, body: authorize(), expect: 201 },
      { method: 'PUT', path: `/order/${o}/transaction/1`, body: authorize(), expect: 201 },
    ],
  },
  {
    weight: 9, // merchant mistakes: an invalid amount, an unknown order
    steps: (o) => [
      {
        method: 'PUT',
        path: `/order/${o}/transaction/1`,
        body: { ...authorize(), order: { amount: '1.2345', currency: 'USD' } },
        expect: 400,
      },
      { method: 'GET', path: `/order/${o}`, expect: 404 },
    ],
  },
  {
    weight: 1, // someone guessing another merchant's password (locked out after a few tries)
    steps: (o) => [{ method: 'GET', path: `/order/${o}`, expect: 401, badCredentials: true }],
  },
];
const TOTAL_WEIGHT = FLOWS.reduce((sum, flow) => sum + flow.weight, 0);

/** The steps of a new flow on a new order, chosen by weight. */
export function nextFlow(order: string): Step[] {
  let pick = Math.random() * TOTAL_WEIGHT;
  for (const flow of FLOWS) if ((pick -= flow.weight) < 0) return flow.steps(order);
  return FLOWS[0].steps(order);
}

export interface Outcome {
  readonly ok: boolean;
  readonly ms: number;
  /** What went wrong, for the report. */
  readonly problem?: string;
}

export interface Credentials {
  readonly merchant: string;
  readonly password: string;
  /** A merchant whose password is guessed at, from another address. */
  readonly victim: string;
}

/** Sends steps to the gateway over keep-alive connections; never throws. */
export class SoakClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 512 });
  private readonly guesser = new Agent({ keepAlive: true, maxSockets: 4 });
  private readonly authorization: string;
  private readonly wrong: string;

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
  ) {
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`merchant.${user}:${password}`).toString('base64')}`;
    this.authorization = basic(credentials.merchant, credentials.password);
    this.wrong = basic(credentials.victim, 'not-the-password');
  }

  send(step: Step): Promise<Outcome> {
    const merchant = step.badCredentials ? this.credentials.victim : this.credentials.merchant;
    const url = `${this.baseUrl}/api/rest/version/100/merchant/${merchant}${step.path}`;
    const body = step.body === undefined ? undefined : JSON.stringify(step.body);
    const started = performance.now();
    return new Promise((resolve) => {
      const done = (problem?: string) =>
        resolve({ ok: problem === undefined, ms: performance.now() - started, problem });
      const req = request(url, {
        method: step.method,
        agent: step.badCredentials ? this.guesser : this.agent,
        localAddress: step.badCredentials ? '127.0.0.2' : undefined,
        headers: {
          authorization: step.badCredentials ? this.wrong : this.authorization,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      });
      req.once('error', (error) => done(`${step.method} ${step.path}: ${error.message}`));
      req.once('response', (response) => {
        response.resume();
        response.once('end', () =>
          done(
            response.statusCode === step.expect
              ? undefined
              : `${step.method} ${step.path}: ${response.statusCode}, expected ${step.expect}`,
          ),
        );
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
    this.guesser.destroy();
  }
}
