import 'reflect-metadata';
import { resolveContract, validateRequest, type OperationContract } from '@gateway/contract';
import { bodyWith, valueAt } from './support/bodies';

/**
 * Behaviour notes: integer fields accept a JSON number as well as a string. A string of digits is
 * judged as the number it says, by the same range, and the accepted body holds the number.
 */
const authorize = resolveContract('AUTHORIZE', 100) as OperationContract;
const authenticate = resolveContract('AUTHENTICATE_PAYER', 100) as OperationContract;
const DAYS = 'agreement.recurring.daysBetweenPayments';
const TIME_ZONE = 'device.browserDetails.timeZone';

describe.each(['compiled', 'class-validator'] as const)('the %s engine', (engine) => {
  const judge = (contract: OperationContract, path: string, value: unknown) =>
    validateRequest(contract, bodyWith(contract, { [path]: value }), engine);

  it.each([
    [authorize, DAYS, '30', 30],
    [authorize, DAYS, '999', 999],
    [authenticate, TIME_ZONE, '-300', -300],
    [authenticate, 'device.browserDetails.screenWidth', '1920', 1920],
  ])(
    'accepts the string %#, and the accepted body holds the number',
    (contract, path, sent, number) => {
      const result = judge(contract, path, sent);
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      expect(valueAt(result.value, path)).toBe(number);
    },
  );

  it.each(['0', '1000', '30.0', '1e2', ' 30', '30 ', '+30', '', '3 0', '0x1e'])(
    'refuses "%s" at an integer field, naming it, as the number would be',
    (sent) => {
      expect(judge(authorize, DAYS, sent)).toMatchObject({
        ok: false,
        error: { field: DAYS, validationType: 'INVALID' },
      });
    },
  );

  it.each([
    ['0', 0],
    ['1000', 1000],
  ])('judges "%s" by the range as %i is judged, quoting it as sent', (sent, number) => {
    expect(judge(authorize, DAYS, number)).toMatchObject({
      error: { explanation: `Value ${number} is invalid. It must be from 1 to 999` },
    });
    expect(judge(authorize, DAYS, sent)).toEqual({
      ok: false,
      error: {
        field: DAYS,
        validationType: 'INVALID',
        explanation: `Value '${sent}' is invalid. It must be from 1 to 999`,
      },
    });
  });
});

it('copies nothing for a body whose integers are numbers', () => {
  const body = bodyWith(authorize, { [DAYS]: 30 });
  const result = validateRequest(authorize, body);
  expect(result.ok && result.value.agreement).toBe(body.agreement);
});

it('leaves the body as sent when converting: only the copy holds the number', () => {
  const body = bodyWith(authorize, { [DAYS]: '30' });
  const result = validateRequest(authorize, body);
  expect(result.ok && valueAt(result.value, DAYS)).toBe(30);
  expect(valueAt(body, DAYS)).toBe('30');
});
