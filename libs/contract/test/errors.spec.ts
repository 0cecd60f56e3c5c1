import 'reflect-metadata';
import { ApiError, validateBody, validateRequest } from '@gateway/contract';
import { authorizeBody, contractFor, ENGINES, requestsFor } from './support/requests';

const CARD_LIKE = /[0-9]{9,}/;

describe.each(ENGINES)('%s engine', (engine) => {
  const { errorOf } = requestsFor(engine);

  describe('explanations', () => {
    test('name the value and the rule', () => {
      const body = authorizeBody();
      body.order.reference = 'A'.repeat(42);
      expect(errorOf(body)).toEqual({
        field: 'order.reference',
        validationType: 'INVALID',
        explanation: `Value '${'A'.repeat(42)}' is invalid. Length is 42 characters, but must be less than 41`,
      });
    });

    test('explain why amounts stop at 3 decimals', () => {
      const body = authorizeBody();
      body.order.amount = '10.1234';
      expect(errorOf(body).explanation).toBe(
        "Value '10.1234' is invalid. It has 4 decimal places, but at most 3 are allowed (amounts are held in thousandths)",
      );
    });

    test('an amount sent as a JSON number is invalid: request decimals are strings', () => {
      const body = authorizeBody();
      body.order.amount = 10.5;
      expect(errorOf(body)).toEqual({
        field: 'order.amount',
        validationType: 'INVALID',
        explanation: 'Value 10.5 is invalid. It must be a string holding a decimal number',
      });
    });

    test('long values are cut short in the echo', () => {
      const body = { ...authorizeBody(), device: { browser: 'b'.repeat(300) } };
      expect(errorOf(body).explanation).toBe(
        `Value '${'b'.repeat(64)}...' is invalid. Length is 300 characters, but must be less than 256`,
      );
    });
  });

  describe('never a card number in an error', () => {
    const card = (changes: Record<string, unknown>) => {
      const body = authorizeBody();
      Object.assign(body.sourceOfFunds.provided.card, changes);
      return body;
    };

    test.each([
      ['too long', { number: '51234500000000081234' }],
      ['letters in it', { number: '5123450000000008x' }],
      ['a JSON number', { number: 5123450000000008 }],
      ['too short', { number: '51234' }],
    ])('card number %s: the value is not echoed', (_, changes) => {
      const error = errorOf(card(changes));
      expect(error.field).toBe('sourceOfFunds.provided.card.number');
      expect(error.explanation).toMatch(/^Value is invalid\./);
      expect(error.explanation).not.toContain(String(changes.number));
    });

    test('security code: the value is not echoed', () => {
      const error = errorOf(card({ securityCode: '12345' }));
      expect(error).toEqual({
        field: 'sourceOfFunds.provided.card.securityCode',
        validationType: 'INVALID',
        explanation: 'Value is invalid. Length is 5 characters, but must be less than 5',
      });
    });

    test('a card number typed into another field is not echoed either', () => {
      const body = authorizeBody();
      body.order.reference = '4111111111111111 4111111111111111 4111111111111111';
      expect(errorOf(body).explanation).toBe(
        'Value is invalid. Length is 50 characters, but must be less than 41',
      );
      const other = { ...authorizeBody(), customer: { email: '4111111111111111' } };
      expect(errorOf(other).explanation).not.toMatch(CARD_LIKE);
    });

    test('merchant-chosen names holding digit runs are masked in the field and the explanation', () => {
      const body = { ...authorizeBody(), '4111111111111111': 'x' };
      const error = errorOf(body);
      expect(error.field).toBe('xxxxxxxxxxxxxxxx');
      expect(error.explanation).not.toMatch(CARD_LIKE);
      const custom = authorizeBody();
      custom.order.custom = { pan4111111111111111: 'x'.repeat(300) };
      expect(JSON.stringify(errorOf(custom))).not.toMatch(CARD_LIKE);
    });
  });

  describe('unknown fields are rejected, naming them', () => {
    test.each([
      [{ ...authorizeBody(), colour: 'red' }, 'colour'],
      [{ ...authorizeBody(), order: { ...authorizeBody().order, colour: 'red' } }, 'order.colour'],
      [
        {
          ...authorizeBody(),
          order: {
            ...authorizeBody().order,
            item: [{ name: 'a', quantity: '1', unitPrice: '1', colour: 'red' }],
          },
        },
        'order.item[0].colour',
      ],
      [{ ...authorizeBody(), wallet: { provider: { name: 'x' } } }, 'wallet'],
    ])('%# names %s', (body, field) => {
      expect(errorOf(body)).toEqual({
        field,
        validationType: 'INVALID',
        explanation: `Field '${field}' is not part of the AUTHORIZE request`,
      });
    });

    test('names inherited from Object.prototype are unknown too, wherever they are', () => {
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
        const body = JSON.parse(
          `{"apiOperation":"AUTHORIZE","order":{"amount":"1","currency":"USD","${name}":{"x":"1"}},"session":{"id":"SESSION0002345678901234567890123"}}`,
        );
        expect(errorOf(body)).toMatchObject({ field: `order.${name}`, validationType: 'INVALID' });
      }
      const nested = JSON.parse(
        '{"apiOperation":"AUTHORIZE","order":{"amount":"1","currency":"USD","custom":{"constructor":"x"}},"session":{"id":"SESSION0002345678901234567890123"}}',
      );
      expect(errorOf(nested).field).toBe('order.custom.constructor');
    });

    test('a field of another version is unknown: productSKU left Refund at version 41', () => {
      const body = {
        apiOperation: 'REFUND',
        order: { productSKU: 'SKU1' },
        transaction: { amount: '1', currency: 'USD' },
      };
      expect(validateRequest(contractFor('REFUND', 26), body, engine).ok).toBe(true);
      expect(errorOf(body, contractFor('REFUND', 41))).toMatchObject({
        field: 'order.productSKU',
        validationType: 'INVALID',
      });
    });
  });

  describe('deep paths are named as sent, indexes in brackets', () => {
    test.each([
      [
        'order.item[2].unitPrice',
        { item: [1, 2, 3].map(() => ({ name: 'a', quantity: '1', unitPrice: '1' })) },
        (o: any) => (o.item[2].unitPrice = '1,5'),
      ],
      ['order.tax[1].type', { tax: [{ amount: '1' }, { type: '' }] }, () => undefined],
      ['order.custom.giftWrap', { custom: { note: 'ok', giftWrap: '' } }, () => undefined],
      [
        'order.statementDescriptor.address.postcodeZip',
        { statementDescriptor: { address: { postcodeZip: '12#45' } } },
        () => undefined,
      ],
    ])('%s', (field, order, change) => {
      const body = authorizeBody();
      Object.assign(body.order, order);
      change(body.order);
      expect(errorOf(body)).toMatchObject({ field, validationType: 'INVALID' });
    });

    test('sourceOfFunds.provided.card.expiry.month', () => {
      const body = authorizeBody();
      body.sourceOfFunds.provided.card.expiry.month = '13';
      expect(errorOf(body)).toEqual({
        field: 'sourceOfFunds.provided.card.expiry.month',
        validationType: 'INVALID',
        explanation: "Value '13' is invalid. It must be from 1 to 12",
      });
    });

    test('a null element of a list is named by its index', () => {
      const body = authorizeBody();
      body.order.item = [{ name: 'a', quantity: '1', unitPrice: '1' }, null];
      expect(errorOf(body)).toEqual({
        field: 'order.item[1]',
        validationType: 'INVALID',
        explanation: 'Value is invalid. A list element must not be null or empty',
      });
    });
  });

  describe('validateBody', () => {
    test.each([null, [], 'AUTHORIZE', 42, true])('%j is not a JSON object', (body) => {
      const result = validateBody(39, body, engine);
      expect(result).toEqual({
        ok: false,
        error: { explanation: 'The request body must be a JSON object' },
      });
      if (!result.ok)
        expect(ApiError.fromFieldError(result.error).body).toEqual({
          result: 'ERROR',
          error: {
            cause: 'INVALID_REQUEST',
            explanation: 'The request body must be a JSON object',
          },
        });
    });

    test('validateRequest reads a non-object body as one with nothing supplied', () => {
      const result = validateRequest(contractFor('AUTHORIZE', 39), [], engine);
      expect(result).toMatchObject({
        ok: false,
        error: { field: 'apiOperation', validationType: 'MISSING' },
      });
    });

    test.each([{}, { apiOperation: null }, { apiOperation: {} }])(
      'apiOperation absent in %j is MISSING',
      (body) => {
        expect(validateBody(39, body, engine)).toEqual({
          ok: false,
          error: {
            field: 'apiOperation',
            validationType: 'MISSING',
            explanation: "Field 'apiOperation' is required",
          },
        });
      },
    );

    test.each(['authorize', 'CAPTURE_ALL', 7])('apiOperation %j is INVALID', (apiOperation) => {
      const result = validateBody(39, { apiOperation }, engine);
      expect(result).toMatchObject({
        ok: false,
        error: { field: 'apiOperation', validationType: 'INVALID' },
      });
      if (!result.ok)
        expect(result.error.explanation).toContain(
          'It must be one of: AUTHORIZE, PAY, CAPTURE, VOID, REFUND, VERIFY',
        );
    });

    test.each([0, 101, -3, 39.5, Number.NaN])('version %p is refused', (version) => {
      const result = validateBody(version, authorizeBody(), engine);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.field).toBeUndefined();
        expect(result.error.explanation).toMatch(
          /^API version .* is not supported. It must be an integer from 1 to 100$/,
        );
      }
    });

    test('a conforming body gives its normalized value', () => {
      expect(validateBody(100, { ...authorizeBody(), device: {} }, engine)).toEqual({
        ok: true,
        value: authorizeBody(),
      });
    });
  });

  describe('pathological input', () => {
    const deep = (levels: number) => {
      let value: unknown = 'x';
      for (let i = 0; i < levels; i++) value = { a: value };
      return value;
    };

    test('nesting far beyond any contract is refused without exhausting the stack', () => {
      const body = authorizeBody();
      body.order.custom = deep(100_000);
      const error = errorOf(body);
      expect(error).toMatchObject({ validationType: 'INVALID' });
      expect(error.field).toBe(`order.custom${'.a'.repeat(30)}`);
      expect(validateBody(39, { apiOperation: deep(100_000) }, engine)).toMatchObject({
        ok: false,
        error: { field: 'apiOperation' },
      });
    });

    test('nesting within the limit is judged normally', () => {
      const body = authorizeBody();
      body.order.custom = deep(20);
      expect(errorOf(body)).toMatchObject({ field: 'order.custom.a', validationType: 'INVALID' });
    });
  });
});
