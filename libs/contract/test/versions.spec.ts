import 'reflect-metadata';
import { API_OPERATIONS, resolveContract, validateBody } from '@gateway/contract';
import { ENGINES } from './support/requests';

describe('a request at version N uses the highest shown version not above N', () => {
  test.each([
    ['VERIFY', 1, 16],
    ['VERIFY', 16, 16],
    ['VERIFY', 28, 16],
    ['VERIFY', 29, 29],
    ['VERIFY', 100, 29],
    ['REFUND', 5, 26],
    ['REFUND', 40, 26],
    ['REFUND', 41, 41],
    ['AUTHORIZE', 1, 39],
    ['AUTHORIZE', 70, 39],
    ['VOID', 12, 40],
    ['AUTHENTICATE_PAYER', 60, 54],
    ['INITIATE_BROWSER_PAYMENT', 37, 37],
  ])('%s at %i → version %i shape', (op, version, shown) => {
    expect(resolveContract(op, version)?.version).toBe(shown);
  });

  test.each([
    'PAY',
    'CAPTURE',
    'INITIATE_AUTHENTICATION',
    'CONFIRM_BROWSER_PAYMENT',
    'UPDATE_AUTHORIZATION',
  ])('%s has one shape for all versions', (op) => {
    const shapes = new Set([1, 39, 100].map((v) => resolveContract(op, v)));
    expect(shapes.size).toBe(1);
    expect([...shapes][0]?.version).toBeUndefined();
  });

  test('every operation resolves; an unknown one does not', () => {
    for (const op of API_OPERATIONS) expect(resolveContract(op, 50)?.apiOperation).toBe(op);
    expect(resolveContract('SAVE_CARD', 50)).toBeUndefined();
  });

  test('versions outside 1-100 are not resolved', () => {
    expect(() => resolveContract('AUTHORIZE', 0)).toThrow(RangeError);
    expect(() => resolveContract('AUTHORIZE', 101)).toThrow(RangeError);
  });
});

describe.each(ENGINES)('shapes by version, %s engine', (engine) => {
  test('Verify 16 and 29 differ in shape', () => {
    const v16 = {
      apiOperation: 'VERIFY',
      customer: { browser: 'Mozilla/5.0', ipAddress: '10.1.2.3' },
      shipping: { firstName: 'Jane' },
      sourceOfFunds: { session: 'SESSION0002345678901234567890123' },
      transaction: { currency: 'USD' },
    };
    expect(validateBody(20, v16, engine).ok).toBe(true);
    expect(validateBody(29, v16, engine)).toMatchObject({
      ok: false,
      error: { field: 'customer.browser', validationType: 'INVALID' },
    });
    const v29 = {
      apiOperation: 'VERIFY',
      order: { currency: 'USD' },
      device: { browser: 'Mozilla/5.0' },
      shipping: { contact: { firstName: 'Jane' } },
    };
    expect(validateBody(29, v29, engine).ok).toBe(true);
    expect(validateBody(16, v29, engine)).toMatchObject({
      ok: false,
      error: { field: 'order.currency', validationType: 'INVALID' },
    });
  });

  test('Verify 16 requires source of funds, transaction currency and, with card details, the expiry', () => {
    expect(
      validateBody(16, { apiOperation: 'VERIFY', transaction: { currency: 'USD' } }, engine),
    ).toMatchObject({
      ok: false,
      error: { field: 'sourceOfFunds', validationType: 'MISSING' },
    });
    expect(
      validateBody(16, { apiOperation: 'VERIFY', sourceOfFunds: { token: 'TOKEN1' } }, engine),
    ).toMatchObject({
      ok: false,
      error: { field: 'transaction.currency', validationType: 'MISSING' },
    });
    const card = {
      apiOperation: 'VERIFY',
      transaction: { currency: 'USD' },
      sourceOfFunds: { provided: { card: { number: '5123450000000008' } } },
    };
    expect(validateBody(16, card, engine)).toMatchObject({
      ok: false,
      error: { field: 'sourceOfFunds.provided.card.expiry.month', validationType: 'MISSING' },
    });
    expect(
      validateBody(29, { ...card, transaction: undefined, order: { currency: 'USD' } }, engine).ok,
    ).toBe(true);
  });

  test('Refund 41 adds lineOfBusiness and currency conversion', () => {
    const body = {
      apiOperation: 'REFUND',
      transaction: { amount: '1', currency: 'USD' },
      lineOfBusiness: 'books',
    };
    expect(validateBody(41, body, engine).ok).toBe(true);
    expect(validateBody(26, body, engine)).toMatchObject({
      ok: false,
      error: { field: 'lineOfBusiness' },
    });
  });
});
