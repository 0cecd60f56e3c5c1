import type {
  ApiOperation,
  CrossCheck,
  Field,
  Fields,
  GroupField,
  LeafField,
  OperationContract,
} from './field';

/**
 * Small builders so that groups are composed from shared field objects instead of restating rules.
 * They only assemble plain data.
 */

export function group(
  description: string,
  fields: Fields,
  checks?: readonly CrossCheck[],
): GroupField {
  return checks
    ? { kind: 'group', description, fields, checks }
    : { kind: 'group', description, fields };
}

/** The same rule, required within its group (or, for a group, required in its parent). */
export function required<F extends Field>(field: F): F {
  return { ...field, required: true };
}

/** A subset of a field library, in the order given. */
export function pick<T extends Fields, K extends keyof T & string>(
  fields: T,
  ...names: K[]
): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const name of names) picked[name] = fields[name];
  return picked;
}

export function apiOperationField(apiOperation: ApiOperation): LeafField {
  return {
    kind: 'enum',
    values: [apiOperation],
    required: true,
    description: `Selects the operation: always ${apiOperation} for this request`,
  };
}

/** A request body: `apiOperation` first, then the operation's fields. */
export function contract(
  apiOperation: ApiOperation,
  version: number | undefined,
  description: string,
  fields: Fields,
  checks?: readonly CrossCheck[],
): OperationContract {
  const body = group(
    description,
    { apiOperation: apiOperationField(apiOperation), ...fields },
    checks,
  );
  return version === undefined
    ? { apiOperation, description, body }
    : { apiOperation, version, description, body };
}
