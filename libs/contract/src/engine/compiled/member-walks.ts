import type { ArrayField, Field, Fields, GroupField, LeafField, MapField } from '../../model/field';
import { childPath, indexPath } from '../contract-paths';
import { invalidValue } from '../explain';
import { leafCheck, mapCheck } from '../leaf-rules';
import { isInheritedName } from '../normalize';
import { isPlainName, type Walk } from './walk';

/**
 * The contract compiled into one closure per member: it walks the member as sent, returns its
 * normalized value (undefined when absent, as `normalize` decides) and reports to the walk what
 * class-validator would report there. Absence, field rules and unknown members are thus judged in
 * the same single pass.
 */
export type MemberWalk = (sent: unknown, walk: Walk) => unknown;

export interface GroupWalk {
  readonly members: { readonly [name: string]: MemberWalk | undefined };
  readonly required: readonly { readonly name: string; readonly field: Field }[];
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Normalization copies only what it changes: a member whose normalized value is the one sent (no
 * absent member inside) is kept as sent, so a conforming body is mostly returned as it came.
 * `copyOf` starts the copy of an object at its first changed member.
 */
function copyOf(sent: Record<string, unknown>, end: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  let i = 0;
  for (const name in sent) {
    if (i++ === end) break;
    copy[name] = sent[name];
  }
  return copy;
}

/**
 * Anything the contract does not describe (unknown members, objects where a value belongs, the
 * elements of a list that should be an object): normalized the way `normalize` does it, with
 * inherited member names reported wherever they are present.
 */
export function walkAny(sent: unknown, walk: Walk): unknown {
  walk.next++;
  if (typeof sent !== 'object' || sent === null) return sent ?? undefined;
  walk.enterStructure();
  if (Array.isArray(sent)) return walkList(sent, walk, walkAny);
  walk.enterObject(sent);
  let copy: Record<string, unknown> | undefined;
  let present = false;
  let i = 0;
  for (const name in sent) {
    const position = walk.next;
    const member = (sent as Record<string, unknown>)[name];
    walk.noteName(name);
    walk.names.push(name);
    const value = walkAny(member, walk);
    const inherited = isInheritedName(name);
    if (inherited) walk.inherited(position, value, member);
    walk.names.pop();
    const keep = value !== undefined && !inherited;
    if (keep) present = true;
    if (!copy && (!keep || value !== member)) copy = copyOf(sent as Record<string, unknown>, i);
    if (copy && keep) copy[name] = value;
    i++;
  }
  return present ? (copy ?? sent) : undefined;
}

/** A list normalized element by element: absent elements keep their place as null. */
function walkList(
  sent: readonly unknown[],
  walk: Walk,
  element: (item: unknown, walk: Walk) => unknown,
): unknown[] | undefined {
  let copy: unknown[] | undefined;
  let present = false;
  for (let i = 0; i < sent.length; i++) {
    // A hole (never in JSON) is skipped where the reference numbers members.
    if (sent[i] === undefined && !(i in sent)) walk.undecided = true;
    walk.names.push(i);
    const value = element(sent[i], walk);
    walk.names.pop();
    if (value !== undefined) present = true;
    if (!copy && (value === undefined || value !== sent[i])) copy = sent.slice(0, i);
    if (copy) copy.push(value === undefined ? null : value);
  }
  return present ? (copy ?? (sent as unknown[])) : undefined;
}

/**
 * A group sent as an object. Its required members are checked only when something in it is
 * present (`always` for the body, which is judged even when empty).
 */
export function walkGroup(
  sent: Record<string, unknown>,
  group: GroupWalk,
  walk: Walk,
  always: boolean,
): Record<string, unknown> | undefined {
  const start = walk.next++;
  walk.enterStructure();
  walk.enterObject(sent);
  let copy: Record<string, unknown> | undefined;
  let present = false;
  let i = 0;
  for (const name in sent) {
    const position = walk.next;
    const sentMember = sent[name];
    walk.names.push(name);
    const member = group.members[name];
    let value: unknown;
    if (member) value = member(sentMember, walk);
    else {
      walk.noteName(name);
      value = walkAny(sentMember, walk);
      if (isInheritedName(name)) walk.inherited(position, value, sentMember);
      else if (value !== undefined && walk.open(position)) walk.unknown(position);
    }
    walk.names.pop();
    const keep = value !== undefined && (member !== undefined || !isInheritedName(name));
    if (keep) present = true;
    if (!copy && (!keep || value !== sentMember)) copy = copyOf(sent, i);
    if (copy && keep) copy[name] = value;
    i++;
  }
  const out = present ? (copy ?? sent) : undefined;
  if (out || always) {
    for (const { name, field } of group.required)
      if (out?.[name] === undefined) walk.missing(name, field, start);
  }
  return out;
}

function leafWalk(field: LeafField): MemberWalk {
  const check = leafCheck(field);
  const sensitive = field.sensitive === true;
  return (sent, walk) => {
    const position = walk.next;
    // A primitive is its own normalized value; only null and objects need the general walk.
    const value = typeof sent === 'object' ? walkAny(sent, walk) : (walk.next++, sent);
    if (value !== undefined && walk.open(position)) {
      const reason = check(value);
      if (reason !== undefined) walk.invalid(position, invalidValue(value, sensitive, reason));
    }
    return value;
  };
}

/** Anything but an object where a group belongs is broken as a whole; its content goes unjudged. */
function groupMemberWalk(field: GroupField): MemberWalk {
  const group = groupWalk(field);
  const sensitive = field.sensitive === true;
  return (sent, walk) => {
    if (isJsonObject(sent)) return walkGroup(sent, group, walk, false);
    const position = walk.next;
    const value = walkAny(sent, walk);
    if (value !== undefined && walk.open(position))
      walk.invalid(position, invalidValue(value, sensitive, 'It must be a JSON object'));
    return value;
  };
}

/**
 * A list: too long is reported at the list, else the first element that is not an object at that
 * element. Elements that are objects are judged as groups whatever their neighbours are.
 */
function arrayWalk(field: ArrayField): MemberWalk {
  const element = groupWalk(field.of);
  const walkElement: MemberWalk = (item, walk) =>
    isJsonObject(item) ? walkGroup(item, element, walk, false) : walkAny(item, walk);
  const sensitive = field.sensitive === true;
  return (sent, walk) => {
    const position = walk.next;
    if (!Array.isArray(sent)) {
      const value = walkAny(sent, walk);
      if (value !== undefined && walk.open(position))
        walk.invalid(position, invalidValue(value, sensitive, 'It must be a JSON array'));
      return value;
    }
    walk.next++;
    walk.enterStructure();
    const out = walkList(sent, walk, walkElement);
    if (!out || !walk.open(position)) return out;
    if (out.length > field.maxItems) {
      const reason = `It has ${out.length} elements, but must have at most ${field.maxItems}`;
      walk.invalid(position, invalidValue(out, sensitive, reason));
      return out;
    }
    let odd = 0;
    while (odd < out.length && isJsonObject(out[odd])) odd++;
    if (odd < out.length) {
      const reason =
        out[odd] === null ? 'A list element must not be null or empty' : 'It must be a JSON object';
      const explanation = invalidValue(out[odd], true, reason);
      walk.located({ path: indexPath(walk.path(), odd), validationType: 'INVALID', explanation });
    }
    return out;
  };
}

/** The map rule judges the normalized map; a fault in one member is placed at that member. */
function mapWalk(field: MapField): MemberWalk {
  const check = mapCheck(field);
  const sensitive = field.sensitive === true;
  return (sent, walk) => {
    const position = walk.next;
    const value = walkAny(sent, walk);
    if (value === undefined || !walk.open(position)) return value;
    const fault = check(value);
    if (!fault) return value;
    if (fault.member === undefined) {
      walk.invalid(position, invalidValue(value, sensitive, fault.reason));
      return value;
    }
    const explanation = fault.inName
      ? `Field name '${fault.member}' is invalid. ${fault.reason}`
      : invalidValue((value as Record<string, unknown>)[fault.member], sensitive, fault.reason);
    const path = childPath(walk.path(), fault.member);
    walk.located({ path, validationType: 'INVALID', explanation });
    return value;
  };
}

function memberWalk(field: Field): MemberWalk {
  switch (field.kind) {
    case 'group':
      return groupMemberWalk(field);
    case 'array':
      return arrayWalk(field);
    case 'map':
      return mapWalk(field);
    default:
      return leafWalk(field);
  }
}

/** Keyed by the members: a group shared between contracts, or marked required, walks the same. */
const groupWalks = new WeakMap<Fields, GroupWalk>();

export function groupWalk(group: GroupField): GroupWalk {
  let compiled = groupWalks.get(group.fields);
  if (!compiled) {
    const entries = Object.entries(group.fields);
    for (const [name] of entries) {
      // The reference could never accept such a member; the walk reads members by these names.
      if (!isPlainName(name) || isInheritedName(name))
        throw new Error(`Contract member name '${name}' cannot be validated`);
    }
    compiled = {
      members: Object.assign(
        Object.create(null),
        Object.fromEntries(entries.map(([name, field]) => [name, memberWalk(field)])),
      ),
      required: entries
        .filter(([, field]) => field.required)
        .map(([name, field]) => ({ name, field })),
    };
    groupWalks.set(group.fields, compiled);
  }
  return compiled;
}
