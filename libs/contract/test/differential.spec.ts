import 'reflect-metadata';
import {
  allContracts,
  validateBody,
  validateRequest,
  type OperationContract,
} from '@gateway/contract';
import { isDeepStrictEqual } from 'node:util';
import { classValidatorEngine } from '../src/engine/class-validator/class-validator-engine';
import { compiledEngine } from '../src/engine/compiled/compiled-engine';
import { normalize } from '../src/engine/normalize';
import type { RequestValidator } from '../src/engine/request-validator';
import { bodyWith, fieldEntries } from './support/bodies';
import { derivedBodies } from './support/cases';
import { fullAuthorizeBody } from './support/full-authorize.fixture';
import { mutate, Random } from './support/mutations';
import { validSample } from './support/samples';

/**
 * The compiled engine must answer exactly as the class-validator engine: same acceptance, same
 * normalized value, same field, type and explanation. Compared on every contract-derived case and
 * on thousands of seeded random mutations of rich bodies.
 */

type Json = Record<string, unknown>;

const name = (c: OperationContract) => `${c.apiOperation} ${c.version ?? '(all versions)'}`;

/** What an engine answers, or what it throws. */
function outcome(judge: () => unknown): unknown {
  try {
    return judge();
  } catch (error) {
    return { threw: String(error) };
  }
}

/** Where the engines disagree on a body, or undefined. */
function disagreement(contract: OperationContract, body: unknown): string | undefined {
  const compiled = outcome(() => validateRequest(contract, body, 'compiled'));
  const reference = outcome(() => validateRequest(contract, body, 'class-validator'));
  if (isDeepStrictEqual(compiled, reference)) return undefined;
  const shown = (v: unknown) => JSON.stringify(v)?.slice(0, 2000);
  return `body ${shown(body)}\n compiled  ${shown(compiled)}\n reference ${shown(reference)}`;
}

function expectAgreement(contract: OperationContract, bodies: readonly unknown[]): void {
  const disagreements = bodies.map((body) => disagreement(contract, body)).filter(Boolean);
  expect(disagreements.slice(0, 3)).toEqual([]);
}

/** Every field of the contract set to a conforming value (cross-field rules then satisfied). */
function richBody(contract: OperationContract): Json {
  const values = fieldEntries(contract).flatMap(({ path, field }) =>
    field.kind === 'map' ? [] : [[path, validSample(field)]],
  );
  return bodyWith(contract, Object.fromEntries(values));
}

const fullAuthorize = (apiOperation: string): Json => ({ ...fullAuthorizeBody(), apiOperation });

/** Seeded mutations of each base body. */
function damaged(seed: number, bases: readonly Json[], count: number): Json[] {
  const random = new Random(seed);
  return Array.from({ length: count }, () => mutate(random, random.pick(bases)));
}

const basesOf = (contract: OperationContract): Json[] =>
  contract.apiOperation === 'AUTHORIZE' || contract.apiOperation === 'PAY'
    ? [richBody(contract), fullAuthorize(contract.apiOperation)]
    : [richBody(contract)];

describe.each(allContracts.map((c, i) => [name(c), c, i] as const))('%s', (_, contract, i) => {
  test('the rich body and the full Authorize are accepted by both engines', () => {
    for (const body of basesOf(contract)) {
      expect(validateRequest(contract, body, 'class-validator').ok).toBe(true);
      expect(disagreement(contract, body)).toBeUndefined();
    }
  });

  test('every contract-derived case gives the same answer', () => {
    expectAgreement(contract, derivedBodies(contract));
  });

  test('700 randomly damaged bodies give the same answer', () => {
    expectAgreement(contract, damaged(1000 + i, basesOf(contract), 700));
  });

  test('the compiled violations() are the reference set', () => {
    const engines = [compiledEngine, classValidatorEngine].map((e) => e.compile(contract));
    const set = (validator: RequestValidator, body: Json): string[] =>
      [...new Set(validator.violations(body).map((v) => JSON.stringify(v)))].sort();
    const bodies = [...derivedBodies(contract), ...damaged(2000 + i, basesOf(contract), 300)];
    const disagreements = bodies
      .map((body) => (normalize(body).value ?? {}) as Json)
      .filter((body) => !isDeepStrictEqual(set(engines[0], body), set(engines[1], body)));
    expect(disagreements.slice(0, 3)).toEqual([]);
  });
});

describe('edge cases written by hand', () => {
  const contract = (op: string) =>
    allContracts.find((c) => c.apiOperation === op) as OperationContract;
  const card = fullAuthorizeBody().sourceOfFunds;
  const order = { amount: '1', currency: 'USD' };
  const deep = (levels: number): unknown => (levels === 0 ? 'x' : { a: deep(levels - 1) });

  test.each([
    [
      'a format and a cross-field rule broken at one member',
      {
        ...fullAuthorizeBody(),
        order: { ...order, currency: 'usd' },
        currencyConversion: { uptake: 'ACCEPTED', payerAmount: '1', payerCurrency: 'usd' },
      },
    ],
    ['order and source of funds both missing', { apiOperation: 'AUTHORIZE' }],
    [
      'a required group sent null, then an unknown member',
      { apiOperation: 'AUTHORIZE', order: null, colour: 'red', sourceOfFunds: card },
    ],
    [
      'a required group sent hollow',
      {
        apiOperation: 'AUTHORIZE',
        order: { discount: { amount: null }, item: [null, {}] },
        sourceOfFunds: card,
        x: 1,
      },
    ],
    [
      'a hollow group holding a present inherited name',
      JSON.parse(
        '{"apiOperation":"AUTHORIZE","order":{"discount":{"__proto__":{"a":1}}},"session":{"id":"SESSION0002345678901234567890123"}}',
      ),
    ],
    [
      'inherited names inside inherited names',
      JSON.parse(
        '{"apiOperation":"AUTHORIZE","order":{"amount":"1","currency":"USD","toString":{"valueOf":{"x":null}},"constructor":{"constructor":"a"}},"session":{"id":"SESSION0002345678901234567890123"}}',
      ),
    ],
    [
      'elements of every wrong kind',
      {
        apiOperation: 'AUTHORIZE',
        order: {
          ...order,
          item: [
            {},
            'x',
            null,
            [[{ name: '' }]],
            { name: 'a', quantity: '1', unitPrice: '1', colour: 1 },
          ],
        },
        sourceOfFunds: card,
      },
    ],
    [
      'a list too long, holding nulls',
      {
        apiOperation: 'AUTHORIZE',
        order: {
          ...order,
          tax: Array.from({ length: 101 }, (_, i) => (i % 2 ? null : { amount: '1' })),
        },
        sourceOfFunds: card,
      },
    ],
    [
      'a map with bad names, absent members and a bad value',
      {
        apiOperation: 'AUTHORIZE',
        order: {
          ...order,
          custom: { ok: 'x', gone: null, 'bad name': 'y', long: 'z'.repeat(251) },
        },
        sourceOfFunds: card,
      },
    ],
    [
      'a map over its count only before absent members are dropped',
      {
        apiOperation: 'AUTHORIZE',
        order: {
          ...order,
          custom: Object.fromEntries(
            Array.from({ length: 52 }, (_, i) => [`k${i}`, i < 2 ? null : 'v']),
          ),
        },
        sourceOfFunds: card,
      },
    ],
    [
      'a map over its byte budget',
      { ...fullAuthorizeBody(), risk: { custom: { a: 'é'.repeat(2000), b: 'x'.repeat(100) } } },
    ],
    [
      'a map sent as a list',
      { apiOperation: 'AUTHORIZE', order: { ...order, custom: [{ a: 'b' }] }, sourceOfFunds: card },
    ],
    [
      'a map member holding an inherited name',
      JSON.parse(
        '{"apiOperation":"AUTHORIZE","order":{"amount":"1","currency":"USD","custom":{"a":{"constructor":"x"},"b!":"y"}},"session":{"id":"SESSION0002345678901234567890123"}}',
      ),
    ],
    [
      'a group sent as a list of broken groups',
      { apiOperation: 'AUTHORIZE', customer: [{ email: 'nope' }], order: { currency: 'usd' } },
    ],
    [
      'nesting at the limit after an error',
      {
        apiOperation: 'AUTHORIZE',
        colour: 1,
        order: { ...order, custom: deep(31) },
        sourceOfFunds: card,
      },
    ],
    [
      'nesting just past the limit after an error',
      {
        apiOperation: 'AUTHORIZE',
        colour: 1,
        order: { ...order, custom: deep(32) },
        sourceOfFunds: card,
      },
    ],
    [
      'integer-like names, which objects list first',
      { '10': 1, apiOperation: 'AUTHORIZE', '2': null, order, sourceOfFunds: card },
    ],
    [
      'card-like digits in names and values',
      {
        apiOperation: 'AUTHORIZE',
        order: { ...order, custom: { pan4111111111111111: '', x: '4111111111111111' } },
        sourceOfFunds: card,
      },
    ],
  ])('AUTHORIZE: %s', (_, body) => {
    expect(disagreement(contract('AUTHORIZE'), body)).toBeUndefined();
  });

  test.each([
    ['PROVIDER_B without its group', { sourceOfFunds: { type: 'PROVIDER_B', provided: null } }],
    [
      'PROVIDER_B with a hollow group',
      { sourceOfFunds: { type: 'PROVIDER_B', provided: { providerB: { bankIdentifier: null } } } },
    ],
    [
      'PROVIDER_A without its confirmation',
      { sourceOfFunds: { type: 'PROVIDER_A' }, browserPayment: null },
    ],
  ])('INITIATE_BROWSER_PAYMENT: %s', (_, extra) => {
    const body = {
      apiOperation: 'INITIATE_BROWSER_PAYMENT',
      browserPayment: { operation: 'PAY', returnUrl: 'https://shop.example.com/back' },
      order: { amount: '5', currency: 'EUR' },
      ...extra,
    };
    expect(disagreement(contract('INITIATE_BROWSER_PAYMENT'), body)).toBeUndefined();
  });
});

describe('bodies the single pass hands to the general pipeline', () => {
  const authorize = allContracts.find((c) => c.apiOperation === 'AUTHORIZE') as OperationContract;
  const judge = compiledEngine.compile(authorize).judge as NonNullable<RequestValidator['judge']>;
  const base = fullAuthorizeBody();

  test.each([
    ['a dotted name', { 'order.amount': 'x' }],
    ['a dotted name sent empty', { 'customer.email': null }],
    ['an empty name', { '': { order: 1 } }],
    ['a bracket in a name', { 'order[0]': {} }],
  ])('%s: judged by the general pipeline, with the same answer', (_, extra) => {
    const body = { ...base, ...extra, customer: { email: 'nope' } };
    expect(judge(body)).toBeUndefined();
    expect(disagreement(authorize, body)).toBeUndefined();
  });

  test('an object inheriting enumerable members', () => {
    const body = { ...base, customer: Object.create({ email: 'nope' }) };
    expect(judge(body)).toBeUndefined();
    expect(disagreement(authorize, body)).toBeUndefined();
  });

  test('an Object.prototype with an enumerable member', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 'x';
    try {
      expect(judge(base)).toBeUndefined();
      expect(disagreement(authorize, base)).toBeUndefined();
    } finally {
      delete prototype.polluted;
    }
  });

  test('most random bodies are judged in the single pass', () => {
    const bodies = damaged(3000, [base], 500);
    const passed = bodies.filter((body) => judge(body) !== undefined).length;
    expect(passed).toBeGreaterThan(400);
    expectAgreement(authorize, bodies);
  });
});

describe('validateBody', () => {
  test('random operations and versions give the same answer', () => {
    const random = new Random(4000);
    const bases = allContracts.flatMap(basesOf);
    for (let n = 0; n < 500; n++) {
      const body = mutate(random, random.pick(bases));
      const version = random.pick([1, 16, 26, 29, 39, 41, 54, 100, 0, 39.5]);
      expect(validateBody(version, body, 'compiled')).toStrictEqual(
        validateBody(version, body, 'class-validator'),
      );
    }
  });
});
