import {
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { postForm, providerPaymentBody } from '../support/three-d-secure';

/**
 * Payers racing themselves across two gateway processes on one data directory (a double click
 * that a load balancer spreads over both): the order's lock is per process, so the loser finds
 * the stream moved on under it. Whatever happens, the payer's browser gets an HTML page.
 */
const ORDERS = 8;
const TRIES_PER_PROCESS = 3;
const RUN = Date.now().toString(36);

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly text: string;
}

let gateways: RunningGateway[] = [];

beforeAll(async () => {
  const dataDir = await makeDataDir();
  gateways = [await startGateway(dataDir), await startGateway(dataDir)];
});
afterAll(() => Promise.all(gateways.map((g) => g.stop())));

/** The same payer request sent TRIES_PER_PROCESS times to each process at once. */
function raced(send: (baseUrl: string) => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(
    gateways.flatMap((g) => Array.from({ length: TRIES_PER_PROCESS }, () => send(g.baseUrl))),
  );
}

async function openPage(url: string): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual' });
  return {
    status: response.status,
    type: contentType(response.headers),
    text: await response.text(),
  };
}

async function decide(url: string): Promise<Answer> {
  const response = await postForm(url, { decision: 'APPROVED' });
  return { status: response.status, type: contentType(response.headers), text: response.text };
}

const contentType = (headers: Headers) => headers.get('content-type') ?? '';

function expectHtmlOnly(answers: readonly Answer[]): void {
  for (const a of answers) {
    expect({ status: a.status, type: a.type, json: a.text.startsWith('{') }).toEqual({
      status: a.status,
      type: 'text/html; charset=utf-8',
      json: false,
    });
  }
}

describe("a payer racing across two processes always gets a page, never the API's JSON", () => {
  it('opening the provider page and approving there, from both processes at once', async () => {
    const api = merchantClient(gateways[0]);
    const links = await Promise.all(
      Array.from({ length: ORDERS }, async (_, i) => {
        const initiated = await api.put(
          `/order/payer-race-${RUN}-${i}/transaction/bp-1`,
          providerPaymentBody(),
        );
        expect(initiated.status).toBe(201);
        return new URL(initiated.body.browserPayment.redirectUrl).pathname;
      }),
    );
    for (const path of links) {
      const opened = await raced((base) => openPage(`${base}${path}`));
      expectHtmlOnly(opened);
      expect(opened.filter((a) => a.status === 200).length).toBeGreaterThan(0);

      const decided = await raced((base) => decide(`${base}${path}`));
      expectHtmlOnly(decided.filter((a) => a.status !== 303));
      expect(decided.filter((a) => a.status === 303)).toHaveLength(1);
      for (const lost of decided.filter((a) => a.status !== 303)) {
        expect(lost.status).toBe(409);
        expect(lost.text).toMatch(/Payment finished/);
      }
    }
  });

  it('a form the API would refuse (over the body limit) and an unknown payer path get a page too', async () => {
    const api = merchantClient(gateways[0]);
    const initiated = await api.put(
      `/order/payer-big-${RUN}/transaction/bp-1`,
      providerPaymentBody(),
    );
    const url = initiated.body.browserPayment.redirectUrl;
    const tooBig = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `decision=APPROVED&padding=${'x'.repeat(300 * 1024)}`,
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await tooBig.text()).toMatch(/The request body is too large/);
    const unknown = await fetch(`${gateways[0].baseUrl}/payer/nowhere/at-all`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});
