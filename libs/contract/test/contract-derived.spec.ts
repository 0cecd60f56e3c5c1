import 'reflect-metadata';
import { allContracts, validateRequest, type OperationContract } from '@gateway/contract';
import { minimalBody, valueAt } from './support/bodies';
import {
  invalidCases,
  requiredCases,
  structureCases,
  unsentCases,
  validCases,
} from './support/cases';
import { ENGINES } from './support/requests';

/**
 * Tests generated from the contract data: every field of every contract, accepted with conforming
 * values, rejected (exact path, INVALID) for each rule broken in turn, MISSING when required. Both
 * engines answer every case.
 */

const CARD_LIKE = /[0-9]{9,}/;

const name = (c: OperationContract) =>
  `${c.apiOperation} ${c.version === undefined ? '(all versions)' : `v${c.version}`}`;

describe.each(ENGINES)('%s engine', (engine) => {
  function expectRejected(
    contract: OperationContract,
    body: unknown,
    field: string,
    validationType: 'INVALID' | 'MISSING',
  ) {
    const result = validateRequest(contract, body, engine);
    if (result.ok) throw new Error(`accepted, expected ${validationType} at ${field}`);
    expect(result.error).toMatchObject({ field, validationType });
    expect(result.error.explanation).not.toMatch(CARD_LIKE);
    return result.error;
  }

  function expectAccepted(contract: OperationContract, body: unknown) {
    const result = validateRequest(contract, body, engine);
    if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.error)}`);
    return result.value;
  }

  describe.each(allContracts.map((c) => [name(c), c] as const))('%s', (_, contract) => {
    test('the minimal body is accepted, as normalized', () => {
      const body = minimalBody(contract);
      expect(expectAccepted(contract, body)).toEqual(body);
    });

    test.each(validCases(contract))('%s accepts %j', (path, _value, body) => {
      expect(valueAt(expectAccepted(contract, body), path)).toEqual(valueAt(body, path));
    });

    test.each(invalidCases(contract))(
      '%s rejects a value breaking its rule: %s',
      (_path, _rule, value, expectedPath, body, field) => {
        const error = expectRejected(contract, body, expectedPath, 'INVALID');
        if (field.sensitive === true) expect(error.explanation).toMatch(/^Value is invalid\./);
        else if (
          typeof value === 'string' &&
          value.length > 0 &&
          value.length < 60 &&
          !CARD_LIKE.test(value)
        ) {
          expect(error.explanation).toContain(`Value '${value}' is invalid.`);
        }
      },
    );

    const required = requiredCases(contract);
    if (required.length > 0) {
      test.each(required)(
        '%s is MISSING when its group is sent without it',
        (path, body, expected) => {
          if (expected) expectRejected(contract, body, path, 'MISSING');
          else {
            const result = validateRequest(contract, body, engine);
            expect(result.ok ? undefined : result.error.field).not.toBe(path);
          }
        },
      );
    }

    test.each(structureCases(contract))('%s rejects %s', (_path, _case, expectedPath, body) => {
      expectRejected(contract, body, expectedPath, 'INVALID');
    });

    test.each(unsentCases(contract))('%s sent empty or null counts as absent', (_path, bodies) => {
      for (const body of bodies)
        expect(validateRequest(contract, body, engine)).toEqual({
          ok: true,
          value: minimalBody(contract),
        });
    });
  });
});
