import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAcquirerCli } from '../src/acquirer.cli';

interface Seen {
  readonly method?: string;
  readonly url?: string;
  readonly authorization?: string;
  readonly body: any;
}

/** A stand-in for the gateway's operator API: records each request, answers what a test set. */
function fakeGateway() {
  const seen: Seen[] = [];
  let reply = { status: 201, type: 'application/json', body: '{}' };
  const server: Server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk));
    request.on('end', () => {
      seen.push({
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization,
        body: JSON.parse(text),
      });
      response.writeHead(reply.status, { 'content-type': reply.type }).end(reply.body);
    });
  });
  return {
    seen,
    server,
    answer: (status: number, body: unknown, type = 'application/json') =>
      (reply = { status, type, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  };
}

describe('acquirer CLI', () => {
  const gateway = fakeGateway();
  let env: NodeJS.ProcessEnv;
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAcquirerCli(
      args,
      { out: (l) => out.push(l), err: (l) => err.push(l), write: (t) => out.push(t) },
      env,
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    await new Promise<void>((done) => gateway.server.listen(0, '127.0.0.1', done));
    const { port } = gateway.server.address() as AddressInfo;
    env = { GATEWAY_URL: `http://127.0.0.1:${port}`, GATEWAY_OPERATOR_TOKEN: 'op-token' };
  });
  afterAll(() => new Promise((done) => gateway.server.close(done)));
  beforeEach(() => gateway.seen.splice(0));

  it('raises a dispute with the operator token, and says what the gateway recorded', async () => {
    gateway.answer(201, {
      dispute: { id: 'D-1', transactionId: 'cap-1', amount: 12.5, currency: 'EUR' },
      order: { id: 'o-1', merchant: 'TESTM', status: 'DISPUTED' },
    });
    const result = await run('dispute', '--merchant', 'TESTM', '--order', 'o-1', '--amount=12.50');
    expect(result).toEqual({
      code: 0,
      out: 'dispute D-1 opened on order o-1 of TESTM: 12.5 EUR of transaction cap-1; order status DISPUTED',
      err: '',
    });
    expect(gateway.seen).toEqual([
      {
        method: 'POST',
        url: '/operator/acquirer/dispute',
        authorization: 'Bearer op-token',
        body: { merchantId: 'TESTM', orderId: 'o-1', amount: '12.50' },
      },
    ]);
  });

  it('processes a chargeback, the amount left to the gateway when not given', async () => {
    gateway.answer(201, {
      chargeback: {
        transactionId: 'cb-1',
        targetTransactionId: 'cap-1',
        amount: 3,
        currency: 'EUR',
      },
      order: {
        id: 'o-1',
        merchant: 'TESTM',
        status: 'CHARGEBACK_PROCESSED',
        totalChargebackAmount: 3,
      },
    });
    const result = await run('chargeback', '--merchant', 'TESTM', '--order', 'o-1');
    expect(result.out).toBe(
      'chargeback cb-1 processed on order o-1 of TESTM: 3 EUR of transaction cap-1; order status CHARGEBACK_PROCESSED, charged back in all 3',
    );
    expect(gateway.seen[0]).toMatchObject({
      url: '/operator/acquirer/chargeback',
      body: { merchantId: 'TESTM', orderId: 'o-1' },
    });
  });

  it('writes the settlement file the gateway answers, whole', async () => {
    const csv = 'batch,settlementDate\r\n20261126,2026-11-27\r\nTRAILER,1\r\n';
    gateway.answer(200, csv, 'text/csv');
    const out = join(mkdtempSync(join(tmpdir(), 'acquirer-cli-')), 'settlement.csv');
    writeFileSync(out, 'an older file');
    const result = await run('settle', '--merchant', 'TESTM', '--date', '2026-11-26', '--out', out);
    expect(result.code).toBe(0);
    expect(result.out).toBe(`settlement file of TESTM for 2026-11-26 written to ${out} (3 lines)`);
    expect(readFileSync(out, 'utf8')).toBe(csv);
    expect(gateway.seen[0]).toMatchObject({
      url: '/operator/acquirer/settlement',
      body: { merchantId: 'TESTM', date: '2026-11-26' },
    });
    expect(
      (await run('settle', '--merchant', 'TESTM', '--date', '2026-11-26', '--out', '-')).out,
    ).toBe(csv);
  });

  it('creates the directories on the way, and names the file in a directory it is given', async () => {
    const csv = 'batch,settlementDate\r\nTRAILER,0\r\n';
    const root = mkdtempSync(join(tmpdir(), 'acquirer-cli-'));
    const settle = (out: string) =>
      run('settle', '--merchant', 'TESTM', '--date', '2026-11-26', '--out', out);
    gateway.answer(200, csv, 'text/csv');
    const nested = join(root, 'not', 'made', 'yet.csv');
    expect((await settle(nested)).code).toBe(0);
    expect(readFileSync(nested, 'utf8')).toBe(csv);
    gateway.answer(200, csv, 'text/csv');
    const named = join(root, 'settlement-files', 'TESTM-2026-11-26.csv');
    expect((await settle(`${join(root, 'settlement-files')}/`)).out).toBe(
      `settlement file of TESTM for 2026-11-26 written to ${named} (2 lines)`,
    );
    expect(readFileSync(named, 'utf8')).toBe(csv);
    gateway.answer(200, csv, 'text/csv');
    expect((await settle(join(root, 'not'))).code).toBe(0); // an existing directory
    expect(readFileSync(join(root, 'not', 'TESTM-2026-11-26.csv'), 'utf8')).toBe(csv);
  });

  it('reports a refusal with the error object, exit 1, and writes no file', async () => {
    gateway.answer(400, {
      result: 'ERROR',
      error: {
        cause: 'INVALID_REQUEST',
        explanation: 'Nothing captured on order o-2 can be disputed',
        field: 'orderId',
        validationType: 'INVALID',
      },
    });
    const result = await run('dispute', '--merchant', 'TESTM', '--order', 'o-2');
    expect(result).toEqual({
      code: 1,
      out: '',
      err: 'refused, HTTP 400: Nothing captured on order o-2 can be disputed (orderId)',
    });
    const out = join(mkdtempSync(join(tmpdir(), 'acquirer-cli-')), 'never.csv');
    expect(
      (await run('settle', '--merchant', 'LIVE', '--date', '2026-11-26', '--out', out)).code,
    ).toBe(1);
    expect(() => readFileSync(out)).toThrow(/ENOENT/);
    gateway.answer(401, {
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
    });
    expect((await run('dispute', '--merchant', 'TESTM', '--order', 'o-2')).err).toMatch(
      /HTTP 401: Invalid credentials\.; set GATEWAY_OPERATOR_TOKEN/,
    );
  });

  it('exits 1 when the gateway cannot be reached', async () => {
    const result = await run(
      'dispute',
      '--merchant',
      'T',
      '--order',
      'o',
      '--gateway',
      'http://127.0.0.1:1',
    );
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^cannot reach the gateway at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
  });

  it('explains bad usage with exit 2 and sends nothing', async () => {
    for (const args of [
      [],
      ['refund', '--merchant', 'T'],
      ['dispute', '--merchant', 'T'],
      ['dispute', '--merchant', 'T', '--order', 'o', '--amount', '-1'],
      ['dispute', '--merchant', 'T', '--order', 'o', '--amount', '1.2345'],
      ['chargeback', '--merchant', 'T', '--order', 'o', '--date', '2026-01-01'],
      ['settle', '--merchant', 'T', '--date', '2026-02-30', '--out', 'f.csv'],
      ['settle', '--merchant', 'T', '--date', '2026-02-03'],
      ['dispute', '--merchant', 'T', '--order', 'o', '--gateway', 'ftp://host'],
      ['dispute', '--merchant', 'T', '--order', 'o', '--ca', '/nonexistent/ca.pem'],
      ['dispute', 'T', 'o'],
    ]) {
      const result = await run(...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.err).toMatch(/\nusage: acquirer <command>/);
    }
    expect(gateway.seen).toEqual([]);
  });

  it('prints the usage on --help', async () => {
    const result = await run('settle', '--help');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^usage: acquirer <command>[\s\S]*settle --merchant M --date YYYY-MM-DD --out FILE/,
    );
  });
});
