import 'reflect-metadata';
import fc from 'fast-check';
import {
  findEmbeddedCardNumber,
  scanJsonShape,
  validateBody,
  withNumberLiterals,
} from '@gateway/contract';
import { parseLiterals } from '../src/number-literals';

/** What the gateway does with a body's text: JSON.parse, then the literals of its numbers. */
function asWritten(text: string, version = 100): Record<string, unknown> {
  return withNumberLiterals(version, JSON.parse(text) as Record<string, unknown>, text);
}

const CARD =
  '{"number":"5123450000000008","expiry":{"month":"1","year":"39"},"securityCode":"100"}';
/** The card as a Java SDK sends it: every digits field a JSON number. */
const cardAsNumbers = (number = '5123450000000008') =>
  `{"number":${number},"expiry":{"month":1,"year":39},"securityCode":100}`;

const authorize = (order: string, card = CARD) =>
  `{"apiOperation":"AUTHORIZE","order":${order},"sourceOfFunds":{"type":"CARD","provided":{"card":${card}}}}`;

describe('withNumberLiterals', () => {
  it('reads a decimal, digits and card number sent as numbers as the strings of their literals', () => {
    const body = asWritten(authorize('{"amount":100.00,"currency":"USD"}', cardAsNumbers()));
    expect(body).toEqual(JSON.parse(authorize('{"amount":"100.00","currency":"USD"}')));
    expect(validateBody(100, body).ok).toBe(true);
  });

  it('keeps every digit a double would round away', () => {
    const body = asWritten(
      authorize('{"amount":1,"currency":"USD"}', cardAsNumbers('5123450000000009999')),
    );
    expect(JSON.parse('5123450000000009999')).toBe(5123450000000010000);
    expect(body).toMatchObject({
      sourceOfFunds: { provided: { card: { number: '5123450000000009999' } } },
    });
  });

  it.each(['1e2', '-5', '1.2345', '1E+2', '0.1e1', '1000000000001', '123456789012345.5'])(
    'refuses the literal %s exactly as the string rule refuses the same text, naming the field',
    (literal) => {
      const asNumber = validateBody(
        100,
        asWritten(authorize(`{"amount":${literal},"currency":"USD"}`)),
      );
      const asString = validateBody(
        100,
        JSON.parse(authorize(`{"amount":"${literal}","currency":"USD"}`)),
      );
      expect(asNumber.ok).toBe(false);
      expect(asNumber).toEqual(asString);
      expect(asNumber).toMatchObject({ error: { field: 'order.amount' } });
    },
  );

  it('a card number written as a number outside the card field is refused by the card-data guard', () => {
    const order =
      '{"amount":"1.00","currency":"USD","item":[{"name":"a","quantity":5123450000000008,"unitPrice":"1.00"}]}';
    const validated = validateBody(100, asWritten(authorize(order)));
    if (!validated.ok) throw new Error(validated.error.explanation);
    expect(findEmbeddedCardNumber(validated.value)).toEqual({
      field: 'order.item[0].quantity',
      validationType: 'INVALID',
      explanation: expect.stringMatching(/could be a card number/),
    });
  });

  it('leaves a number anywhere else a number, refused as before', () => {
    const body = asWritten(authorize('{"amount":"1.00","currency":840,"reference":12}'));
    expect(body).toMatchObject({ order: { currency: 840, reference: 12 } });
    expect(validateBody(100, body)).toMatchObject({
      ok: false,
      error: { field: 'order.currency', explanation: 'Value 840 is invalid. It must be a string' },
    });
  });

  it('judges line items, negative unit prices and quantities by their literals', () => {
    const order =
      '{"amount":"3.50","currency":"USD","itemAmount":3.50,"item":[{"name":"a","quantity":2,"unitPrice":2.00},{"name":"b","quantity":1,"unitPrice":-0.50}]}';
    const body = asWritten(authorize(order));
    expect(body).toMatchObject({
      order: {
        itemAmount: '3.50',
        item: [
          { quantity: '2', unitPrice: '2.00' },
          { quantity: '1', unitPrice: '-0.50' },
        ],
      },
    });
    expect(validateBody(100, body).ok).toBe(true);
  });

  it('reads an integer field as its literal too: the integer rule takes 30 and refuses 30.0', () => {
    const withDays = (days: string) =>
      asWritten(
        authorize('{"amount":"1.00","currency":"USD"}').replace(
          '{',
          `{"agreement":{"recurring":{"daysBetweenPayments":${days}}},`,
        ),
      );
    expect(withDays('30')).toMatchObject({
      agreement: { recurring: { daysBetweenPayments: '30' } },
    });
    expect(validateBody(100, withDays('30'))).toMatchObject({
      ok: true,
      value: { agreement: { recurring: { daysBetweenPayments: 30 } } },
    });
    for (const literal of ['30.0', '3e1']) {
      expect(validateBody(100, withDays(literal))).toMatchObject({
        ok: false,
        error: {
          field: 'agreement.recurring.daysBetweenPayments',
          explanation: `Value '${literal}' is invalid. It must be an integer: digits, as a JSON number or a string, without a fraction or exponent`,
        },
      });
    }
  });

  it('reads the member JSON.parse kept: the last of duplicates, names as unescaped', () => {
    const text =
      '{"apiOperation":"CAPTURE","transaction":{"amount":1.5},"transaction":{"\\u0061mount":2.50,"currency":"USD"}}';
    expect(asWritten(text)).toEqual({
      apiOperation: 'CAPTURE',
      transaction: { amount: '2.50', currency: 'USD' },
    });
  });

  it('returns the very body when no number sits at such a field, or the operation is unknown', () => {
    const strings = JSON.parse(authorize('{"amount":"1.00","currency":"USD"}'));
    expect(withNumberLiterals(100, strings, JSON.stringify(strings))).toBe(strings);
    const unknown = { apiOperation: 'SETTLE', order: { amount: 1 } };
    expect(withNumberLiterals(100, unknown, JSON.stringify(unknown))).toBe(unknown);
    const anyVersion = { apiOperation: 'CAPTURE', transaction: { amount: 1 } };
    expect(withNumberLiterals(0, anyVersion, JSON.stringify(anyVersion))).toBe(anyVersion);
  });
});

describe('parseLiterals', () => {
  /** Every number of a JSON value with its path, as JSON.parse reads it. */
  function numbers(value: unknown, path = ''): [string, number][] {
    if (typeof value === 'number') return [[path, value]];
    if (value === null || typeof value !== 'object') return [];
    return Object.entries(value).flatMap(([k, v]) => numbers(v, `${path}/${k}`));
  }

  function literals(value: unknown, path = ''): [string, number][] {
    if (value === undefined || value === null || typeof value !== 'object') return [];
    if ('text' in value && typeof value.text === 'string') return [[path, Number(value.text)]];
    return Object.entries(value).flatMap(([k, v]) => literals(v, `${path}/${k}`));
  }

  it('finds every number JSON.parse finds, at the same place, with the same value', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(literals(parseLiterals(text))).toEqual(numbers(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('reads whitespace, escapes, a byte order mark and members named like prototype properties', () => {
    const text = '\ufeff { "__proto__" : { "a\\"b" : [ -1.5e-3 , "2" , true , null ] } } ';
    expect(literals(parseLiterals(text))).toEqual([['/__proto__/a"b/0', -0.0015]]);
  });
});

describe('scanJsonShape', () => {
  it.each([
    ['{"a":"100.00","b":"-5"}', false],
    ['{"a":true,"b":null,"c":[]}', false],
    ['{"a":100.00}', true],
    ['[-1]', true],
    ['{"a\\"1":"x"}', false],
  ])('%s holds numbers: %s', (text, holdsNumbers) => {
    expect(scanJsonShape(text)).toEqual({ holdsNumbers });
  });
});
