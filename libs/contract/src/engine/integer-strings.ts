import type { Field, GroupField } from '../model/field';

/**
 * An integer field accepts a string of digits as well as a JSON number (leaf-rules.ts); the
 * operations downstream see numbers only. Once a body is accepted, each integer field holding a
 * string gets the number it says, copying only the objects along its way, so a body without such
 * a string is returned as it came. The walk enters only the members that lead to an integer
 * field (a handful per contract), found once per group.
 */
export function integersAsNumbers(
  shape: GroupField,
  value: Record<string, unknown>,
): Record<string, unknown> {
  return converted(shape, value) as Record<string, unknown>;
}

type Member = readonly [name: string, field: Field];

const leadingToIntegers = new WeakMap<GroupField, readonly Member[]>();

/** The members of `group` that are, or hold, an integer field. */
function membersToIntegers(group: GroupField): readonly Member[] {
  let members = leadingToIntegers.get(group);
  if (!members) {
    members = Object.entries(group.fields).filter(([, field]) => holdsInteger(field));
    leadingToIntegers.set(group, members);
  }
  return members;
}

function holdsInteger(field: Field): boolean {
  if (field.kind === 'group') return membersToIntegers(field).length > 0;
  if (field.kind === 'array') return holdsInteger(field.of);
  return field.kind === 'integer';
}

/** Called on accepted bodies only: a group's value is an object, a list's an array of objects. */
function converted(field: Field, value: unknown): unknown {
  switch (field.kind) {
    case 'integer':
      return typeof value === 'string' ? Number(value) : value;
    case 'array':
      return changedElements(value as unknown[], (element) => converted(field.of, element));
    case 'group':
      return changedMembers(field, value as Record<string, unknown>);
    default:
      return value;
  }
}

function changedMembers(group: GroupField, object: Record<string, unknown>): unknown {
  let copy: Record<string, unknown> | undefined;
  for (const [name, member] of membersToIntegers(group)) {
    if (object[name] === undefined) continue;
    const next = converted(member, object[name]);
    if (next !== object[name]) (copy ??= { ...object })[name] = next;
  }
  return copy ?? object;
}

/** The list with `convert` applied to each element: the list itself if no element changed. */
export function changedElements(
  list: unknown[],
  convert: (element: unknown, index: number) => unknown,
): unknown[] {
  let copy: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const next = convert(list[i], i);
    if (next !== list[i]) (copy ??= list.slice())[i] = next;
  }
  return copy ?? list;
}
