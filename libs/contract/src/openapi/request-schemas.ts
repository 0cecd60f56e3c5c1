import type { ApiOperation, OperationContract } from '../model/field';
import {
  allContracts,
  API_OPERATIONS,
  MAX_VERSION,
  MIN_VERSION,
  resolveContract,
} from '../operations/registry';
import { groupSchema } from './field-schema';
import { COMPONENT_PREFIX, ref, type JsonSchema } from './json-schema';
import { shareObjectSchemas } from './shared-schemas';

/** `INITIATE_BROWSER_PAYMENT` → `InitiateBrowserPayment`. */
function operationName(apiOperation: ApiOperation): string {
  return apiOperation
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** `Refund_v26`; an operation with one shape for every version has no suffix (`Pay`). */
export function shapeName(contract: OperationContract): string {
  const name = operationName(contract.apiOperation);
  return contract.version === undefined ? name : `${name}_v${contract.version}`;
}

export interface VersionRange {
  readonly from: number;
  readonly to: number;
}

/**
 * The request versions a shape serves, asked of the registry itself so that the document cannot
 * drift from the validator. The registry's rule (highest shown version not above N, else the
 * lowest) always yields one contiguous range per shape.
 */
export function servedVersions(contract: OperationContract): VersionRange {
  const served: number[] = [];
  for (let version = MIN_VERSION; version <= MAX_VERSION; version++)
    if (resolveContract(contract.apiOperation, version) === contract) served.push(version);
  return { from: served[0], to: served[served.length - 1] };
}

const rangeText = ({ from, to }: VersionRange): string =>
  from === to ? `version ${from}` : `versions ${from}-${to}`;

function shapeSchema(contract: OperationContract): JsonSchema {
  const versions = servedVersions(contract);
  const shown =
    contract.version === undefined
      ? 'one shape for every version'
      : `shown for version ${contract.version}`;
  return {
    title: `${contract.apiOperation} request (${shown}; serves ${rangeText(versions)})`,
    ...groupSchema(contract.body),
    'x-gateway-versions': { shown: contract.version ?? null, ...versions },
  };
}

/**
 * Where an operation has several shapes the body alone cannot tell them apart (the version in the
 * path does), so the discriminator points at a wrapper accepting any of them.
 */
function versionWrapper(apiOperation: ApiOperation, shapes: OperationContract[]): JsonSchema {
  const choices = shapes.map((s) => `${rangeText(servedVersions(s))} use ${shapeName(s)}`);
  return {
    title: `${apiOperation} request, any version`,
    description: `The version in the path selects the shape: ${choices.join('; ')}.`,
    type: 'object',
    properties: { apiOperation: { type: 'string', enum: [apiOperation] } },
    required: ['apiOperation'],
    anyOf: shapes.map((s) => ref(shapeName(s))),
  };
}

export const REQUEST_SCHEMA = 'TransactionRequest';

/**
 * One schema per operation and shown version, the shared groups they use, a wrapper per
 * operation with several shapes, and the request body: one of the operations, chosen by
 * `apiOperation`. `others` are the request bodies of the other paths, by component name: they
 * share the operations' groups. `otherNames` are the document's other components.
 */
export function requestSchemas(
  otherNames: readonly string[],
  others: Readonly<Record<string, OperationContract>> = {},
): Record<string, JsonSchema> {
  const shapes = shareObjectSchemas(
    {
      ...Object.fromEntries(allContracts.map((c) => [shapeName(c), shapeSchema(c)])),
      ...Object.fromEntries(Object.entries(others).map(([name, c]) => [name, groupSchema(c.body)])),
    },
    [...otherNames, REQUEST_SCHEMA, ...API_OPERATIONS.map(operationName)],
  );
  const wrappers: Record<string, JsonSchema> = {};
  const mapping: Record<string, string> = {};
  for (const apiOperation of API_OPERATIONS) {
    const own = allContracts.filter((c) => c.apiOperation === apiOperation);
    const target = own.length === 1 ? shapeName(own[0]) : operationName(apiOperation);
    if (own.length > 1) wrappers[target] = versionWrapper(apiOperation, own);
    mapping[apiOperation] = `${COMPONENT_PREFIX}${target}`;
  }
  const request: JsonSchema = {
    description:
      'A transaction request: `apiOperation` selects the operation, the version in the path selects the shape of its fields.',
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'apiOperation', mapping },
  };
  return { [REQUEST_SCHEMA]: request, ...wrappers, ...shapes };
}
