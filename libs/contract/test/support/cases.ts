import type { OperationContract } from '@gateway/contract';
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
} from './bodies';
import { badSamples, mapSamples, validSamples } from './samples';

/**
 * The cases generated from a contract's data, with their bodies: the contract-derived tests state
 * what each must give, the differential tests that both engines give the same.
 */

type Json = Record<string, unknown>;

/** Every field accepting each of its conforming values. */
export function validCases(contract: OperationContract) {
  return fieldEntries(contract).flatMap(({ path, field }) =>
    (field.kind === 'map' ? [mapSamples(field).valid] : validSamples(field)).map(
      (value) => [path, value, bodyWith(contract, { [path]: value })] as const,
    ),
  );
}

/** Every rule of every field broken in turn, with the path the error must name. */
export function invalidCases(contract: OperationContract) {
  return fieldEntries(contract).flatMap(({ path, field }) =>
    (field.kind === 'map'
      ? mapSamples(field).bad.map((bad) => ({
          ...bad,
          at: bad.member ? `${path}.${bad.member}` : path,
        }))
      : badSamples(field).map((bad) => ({ ...bad, at: path }))
    ).map(
      ({ rule, value, at }) =>
        [path, rule, value, at, bodyWith(contract, { [path]: value }), field] as const,
    ),
  );
}

/**
 * Every required field left out of its group; `expected` says whether that alone is an error at
 * the field (without a sibling the group is left empty, which is absent: an error only if the
 * group is required).
 */
export function requiredCases(contract: OperationContract) {
  return fieldEntries(contract)
    .filter((f) => f.required)
    .map(({ path }) => {
      const sibling = siblingOf(contract, path);
      const body = bodyWith(contract, {
        ...(sibling ? { [sibling]: sampleAt(contract, sibling) } : {}),
        [path]: sampleAt(contract, path),
      });
      without(body, path);
      const parent = path.slice(0, Math.max(path.lastIndexOf('.'), 0)).replace(/\[0\]$/, '');
      const expected = sibling !== undefined || fieldAtPath(contract, parent).required === true;
      return [path, body, expected] as const;
    });
}

/** Groups and lists sent with the wrong structure, with the path the error must name. */
export function structureCases(contract: OperationContract) {
  return structureEntries(contract).flatMap(({ path, field }) => {
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
    return cases.map(
      ([at, name, value, expected]) =>
        [at, name, expected, bodyWith(contract, { [at]: value })] as const,
    );
  });
}

/**
 * Groups the minimal body lacks, directly under something it has (so nothing else gets created),
 * sent empty or null: each body must give the minimal body back.
 */
export function unsentCases(contract: OperationContract) {
  const minimal = minimalBody(contract);
  return structureEntries(contract)
    .filter(({ path }) => {
      const parent = path.slice(0, Math.max(path.lastIndexOf('.'), 0));
      return (
        !path.includes('[') &&
        valueAt(minimal, path) === undefined &&
        (parent === '' || valueAt(minimal, parent) !== undefined)
      );
    })
    .map(
      ({ path }) =>
        [
          path,
          [{}, null, { inner: null, other: {} }].map((nothing) =>
            bodyWith(contract, { [path]: nothing }),
          ),
        ] as const,
    );
}

/** Every body of every case above, for comparing engines. */
export function derivedBodies(contract: OperationContract): Json[] {
  return [
    minimalBody(contract),
    ...validCases(contract).map(([, , body]) => body),
    ...invalidCases(contract).map(([, , , , body]) => body),
    ...requiredCases(contract).map(([, body]) => body),
    ...structureCases(contract).map(([, , , body]) => body),
    ...unsentCases(contract).flatMap(([, bodies]) => bodies),
  ];
}
