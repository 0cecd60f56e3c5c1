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
  const { street2, ...rest } = address;
  if (typeof street2 !== 'string') return address;
  const street = [rest.street, street2]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');
  return { ...rest, street: street.slice(0, 100) };
}

function updateAt(value: Json, path: readonly string[], change: (address: Json) => Json): Json {
  const [key, ...rest] = path;
  const member = value[key];
  if (member === null || typeof member !== 'object' || Array.isArray(member)) return value;
  const changed = rest.length ? updateAt(member as Json, rest, change) : change(member as Json);
  return changed === member ? value : { ...value, [key]: changed };
}
