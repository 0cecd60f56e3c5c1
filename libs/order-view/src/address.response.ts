type Json = Record<string, unknown>;

/** Where the spec's address group appears in an echoed request. */
const ADDRESS_PATHS = [
  ['billing', 'address'],
  ['shipping', 'address'],
  ['order', 'statementDescriptor', 'address'],
  ['order', 'subMerchant', 'address'],
] as const;

/**
 * Spec, address group: in responses `street` holds street and street2 joined, cut at 100
 * characters, and street2 is empty. The request is recorded as sent; this shapes only the answer.
 */
export function withResponseAddresses(echo: Json): Json {
  let shaped = echo;
  for (const path of ADDRESS_PATHS) shaped = updateAt(shaped, path, joinStreets);
  return shaped;
}

function joinStreets(address: Json): Json {
  // Most addresses have no street2: answered as they are, without copying them.
  if (typeof address.street2 !== 'string') return address;
  const { street2, ...rest } = address;
  const street = [rest.street, street2]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');
  return { ...rest, street: street.slice(0, 100) };
}

/** `value` with `change` applied at `path` (from `depth` on): a copy only where it changed. */
function updateAt(
  value: Json,
  path: readonly string[],
  change: (address: Json) => Json,
  depth = 0,
): Json {
  const key = path[depth];
  const member = value[key];
  if (member === null || typeof member !== 'object' || Array.isArray(member)) return value;
  const changed =
    depth + 1 < path.length
      ? updateAt(member as Json, path, change, depth + 1)
      : change(member as Json);
  return changed === member ? value : { ...value, [key]: changed };
}
