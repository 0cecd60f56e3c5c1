import 'reflect-metadata';
import {
  allContracts,
  buildOpenApiDocument,
  numbersAsWrittenIn,
  resolveContract,
  validateRequest,
  type OperationContract,
} from '@gateway/contract';
import {
  bodyWith,
  fieldEntries,
  minimalBody,
  sampleAt,
  siblingOf,
  structureEntries,
  valueAt,
  without,
} from '../support/bodies';
import { fullAuthorizeBody } from '../support/full-authorize.fixture';
import { badSamples, mapSamples, validSamples } from '../support/samples';
import { requestBodySchema, shapeSchemaFor } from './document-shapes';
import { violations, type Schema } from './json-schema-subset';

/**
 * The schemas confronted with the validator on the bodies the contract tests generate: conforming
 * values, each rule broken, required fields missing, unknown members, sent as JSON text. Wherever the gateway
 * accepts, the schema must accept (else documented clients would be refused); wherever it
 * rejects, the schema must too, except for the rules JSON Schema cannot state, listed here.
 */

const doc = buildOpenApiDocument() as Schema;

interface Case {
  readonly label: string;
  readonly body: Record<string, unknown>;
}

function cases(contract: OperationContract): Case[] {
  const out: Case[] = [{ label: 'minimal body', body: minimalBody(contract) }];
  for (const { path, field, required } of fieldEntries(contract)) {
    const kind = field.kind;
    const good = field.kind === 'map' ? [mapSamples(field).valid] : validSamples(field);
    const bad = field.kind === 'map' ? mapSamples(field).bad : badSamples(field);
    for (const value of good)
      out.push({ label: `${kind}/valid`, body: bodyWith(contract, { [path]: value }) });
    for (const { rule, value } of bad)
      out.push({ label: `${kind}/${rule}`, body: bodyWith(contract, { [path]: value }) });
    const sibling = siblingOf(contract, path);
    if (required && sibling) {
      const body = bodyWith(contract, { [sibling]: sampleAt(contract, sibling) });
      out.push({ label: 'missing', body: without(body, path) });
    }
  }
  // An unknown member in the body and in every group, the group made present through one of its leaves.
  out.push({ label: 'unknown member', body: { ...minimalBody(contract), notAField: 'x' } });
  for (const { path, field } of structureEntries(contract)) {
    if (field.kind !== 'group') continue;
    const leaf = fieldEntries(contract).find((entry) => entry.path.startsWith(`${path}.`))!;
    const body = bodyWith(contract, { [leaf.path]: sampleAt(contract, leaf.path) });
    (valueAt(body, path) as Record<string, unknown>).notAField = 'x';
    out.push({ label: 'unknown member', body });
  }
  return out;
}

/**
 * Whether the gateway accepts the body sent as JSON text: a JSON number at a decimal, digits or
 * integer field is read by its literal before the contract judges it (number-literals.ts).
 */
const gatewayAccepts = (contract: OperationContract, body: Record<string, unknown>): boolean =>
  validateRequest(contract, numbersAsWrittenIn(contract.body, body, JSON.stringify(body))).ok;

/** Rules the validator enforces and the schema only states in words or extensions. */
const NOT_IN_JSON_SCHEMA = [
  'date/calendar', // format "date" is an annotation in JSON Schema 2020-12
  'dateTime/hour', // the pattern checks the shape, not the ranges of hours
  'digits/highest value', // x-gateway-range
  'digits/lowest value',
  'email/email', // format "email" is an annotation
  'enumList/no repeats', // x-gateway-list-values
  'map/total size', // x-gateway-max-total-bytes
];

describe.each(
  allContracts.map((c) => [`${c.apiOperation} ${c.version ?? '(all versions)'}`, c] as const),
)('the schema of %s agrees with the validator', (_, contract) => {
  const schema = shapeSchemaFor(doc, contract);
  const verdicts = cases(contract).map(({ label, body }) => ({
    label,
    body,
    validator: gatewayAccepts(contract, body),
    schema: violations(doc, schema, body).length === 0,
  }));

  test('on every body the validator accepts', () => {
    const accepted = verdicts.filter((v) => v.validator);
    expect(accepted.length).toBeGreaterThan(1);
    expect(
      accepted.filter((v) => !v.schema).map((v) => [v.label, violations(doc, schema, v.body)]),
    ).toEqual([]);
  });

  test('on every body it rejects, but for rules JSON Schema cannot state', () => {
    const lenient = new Set(verdicts.filter((v) => !v.validator && v.schema).map((v) => v.label));
    expect([...lenient].filter((label) => !NOT_IN_JSON_SCHEMA.includes(label))).toEqual([]);
  });

  test('through the request body, found by apiOperation', () => {
    const body = minimalBody(contract);
    expect(violations(doc, requestBodySchema(doc), body)).toEqual([]);
    expect(
      violations(doc, requestBodySchema(doc), { ...body, apiOperation: 'SAVE_CARD' }),
    ).not.toEqual([]);
  });
});

test('every listed gap is real: the schema accepts such a body somewhere', () => {
  const gaps = new Set<string>();
  for (const contract of allContracts) {
    const schema = shapeSchemaFor(doc, contract);
    for (const { label, body } of cases(contract))
      if (!gatewayAccepts(contract, body) && violations(doc, schema, body).length === 0)
        gaps.add(label);
  }
  expect([...gaps].sort()).toEqual(NOT_IN_JSON_SCHEMA);
});

test('a full Authorize body, as an integration sends it, conforms', () => {
  const body = fullAuthorizeBody();
  expect(validateRequest(resolveContract('AUTHORIZE', 39)!, body).ok).toBe(true);
  expect(violations(doc, requestBodySchema(doc), body)).toEqual([]);
});

test.each([
  ['order.amount', 12.5],
  ['sourceOfFunds.provided.card.number', 5123450000000008],
  ['agreement.recurring.daysBetweenPayments', '30'],
])('%s sent as %j: the schema allows it and the gateway accepts it', (path, value) => {
  const contract = resolveContract('AUTHORIZE', 100)!;
  const body = bodyWith(contract, { [path]: value });
  expect(gatewayAccepts(contract, body)).toBe(true);
  expect(violations(doc, requestBodySchema(doc), body)).toEqual([]);
});
