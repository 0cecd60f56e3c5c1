import 'reflect-metadata';
import { allContracts, validateRequest, type OperationContract } from '@gateway/contract';
import {
  bodyWith,
  fieldAtPath,
  fieldEntries,
  minimalBody,
  presentGroup,
  sampleAt,
  siblingOf,
  structureEntries,
  valueAt,
  without,
} from './support/bodies';
import { badSamples, mapSamples, validSamples } from './support/samples';

/**
 * Tests generated from the contract data: every field of every contract, accepted with conforming
 * values, rejected (exact path, INVALID) for each rule broken in turn, MISSING when required.
 */

const CARD_LIKE = /[0-9]{9,}/;

const name = (c: OperationContract) =>
  `${c.apiOperation} ${c.version === undefined ? '(all versions)' : `v${c.version}`}`;

function expectRejected(
  contract: OperationContract,
  body: unknown,
  field: string,
  validationType: 'INVALID' | 'MISSING',
) {
  const result = validateRequest(contract, body);
  if (result.ok) throw new Error(`accepted, expected ${validationType} at ${field}`);
  expect(result.error).toMatchObject({ field, validationType });
  expect(result.error.explanation).not.toMatch(CARD_LIKE);
  return result.error;
}

function expectAccepted(contract: OperationContract, body: unknown) {
  const result = validateRequest(contract, body);
  if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.error)}`);
  return result.value;
}

describe.each(allContracts.map((c) => [name(c), c] as const))('%s', (_, contract) => {
  const fields = fieldEntries(contract);

  test('the minimal body is accepted, as normalized', () => {
    const body = minimalBody(contract);
    expect(expectAccepted(contract, body)).toEqual(body);
  });

  const valid = fields.flatMap(({ path, field }) =>
    (field.kind === 'map' ? [mapSamples(field).valid] : validSamples(field)).map(
      (value) => [path, value] as const,
    ),
  );
  test.each(valid)('%s accepts %j', (path, value) => {
    const body = bodyWith(contract, { [path]: value });
    expect(valueAt(expectAccepted(contract, body), path)).toEqual(valueAt(body, path));
  });

  const invalid = fields.flatMap(({ path, field }) =>
    field.kind === 'map'
      ? mapSamples(field).bad.map(
          (bad) =>
            [path, bad.rule, bad.value, bad.member ? `${path}.${bad.member}` : path] as const,
        )
      : badSamples(field).map((bad) => [path, bad.rule, bad.value, path] as const),
  );
  test.each(invalid)(
    '%s rejects a value breaking its rule: %s',
    (path, _rule, value, expectedPath) => {
      const error = expectRejected(
        contract,
        bodyWith(contract, { [path]: value }),
        expectedPath,
        'INVALID',
      );
      const sensitive = fields.find((f) => f.path === path)?.field.sensitive === true;
      if (sensitive) expect(error.explanation).toMatch(/^Value is invalid\./);
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

  const required = fields.filter((f) => f.required).map(({ path }) => [path] as const);
  if (required.length > 0) {
    test.each(required)('%s is MISSING when its group is sent without it', (path) => {
      const sibling = siblingOf(contract, path);
      const body = bodyWith(contract, {
        ...(sibling ? { [sibling]: sampleAt(contract, sibling) } : {}),
        [path]: sampleAt(contract, path),
      });
      without(body, path);
      const parent = path.slice(0, Math.max(path.lastIndexOf('.'), 0)).replace(/\[0\]$/, '');
      // Without a sibling the group is left empty, which is absent: an error only if the group is required.
      if (sibling || fieldAtPath(contract, parent).required)
        expectRejected(contract, body, path, 'MISSING');
      else {
        const result = validateRequest(contract, body);
        expect(result.ok ? undefined : result.error.field).not.toBe(path);
      }
    });
  }

  const structures = structureEntries(contract).flatMap(({ path, field }) => {
    const content = presentGroup(field.kind === 'array' ? field.of : field);
    const cases: [string, string, unknown, string][] = [
      [path, 'a string instead', 'text', path],
      [
        path,
        field.kind === 'array' ? 'an object instead of a list' : 'a list instead of an object',
        field.kind === 'array' ? content : [content],
        path,
      ],
    ];
    if (field.kind === 'array') {
      cases.push([
        path,
        `more than ${field.maxItems} elements`,
        Array.from({ length: field.maxItems + 1 }, () => content),
        path,
      ]);
      cases.push([path, 'a null element', [content, null], `${path}[1]`]);
      cases.push([path, 'an empty element', [content, {}], `${path}[1]`]);
      cases.push([path, 'a nested list', [[content]], `${path}[0]`]);
    }
    return cases;
  });
  test.each(structures)('%s rejects %s', (path, _case, value, expectedPath) => {
    expectRejected(contract, bodyWith(contract, { [path]: value }), expectedPath, 'INVALID');
  });

  const minimal = minimalBody(contract);
  // Groups the minimal body lacks, directly under something it has (so nothing else gets created).
  const unsent = structureEntries(contract).filter(({ path }) => {
    const parent = path.slice(0, Math.max(path.lastIndexOf('.'), 0));
    return (
      !path.includes('[') &&
      valueAt(minimal, path) === undefined &&
      (parent === '' || valueAt(minimal, parent) !== undefined)
    );
  });
  test.each(unsent.map(({ path }) => [path] as const))(
    '%s sent empty or null counts as absent',
    (path) => {
      for (const nothing of [{}, null, { inner: null, other: {} }]) {
        const body = bodyWith(contract, { [path]: nothing });
        expect(validateRequest(contract, body)).toEqual({ ok: true, value: minimal });
      }
    },
  );
});
