import type {
  ArrayField,
  CrossCheck,
  Field,
  GroupField,
  LeafField,
  MapField,
  OperationContract,
} from '@gateway/contract';
import { mapSamples, validSample, validSamples } from './samples';

/**
 * Request bodies built from a contract: the minimal conforming body, and that body with one field
 * set (its enclosing groups created with their required members, cross-field rules satisfied).
 * Array members are addressed at index 0: `order.item[0].name`.
 */

type Json = Record<string, unknown>;

export interface FieldEntry {
  /** As the error names it: `order.item[0].unitPrice`. */
  readonly path: string;
  readonly field: LeafField | MapField;
  /** Required within its group. */
  readonly required: boolean;
}

/** Every leaf and map of a contract, in declaration order. */
export function fieldEntries(contract: OperationContract): FieldEntry[] {
  const entries: FieldEntry[] = [];
  const visit = (group: GroupField, prefix: string): void => {
    for (const [name, field] of Object.entries(group.fields)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (field.kind === 'group') visit(field, path);
      else if (field.kind === 'array') visit(field.of, `${path}[0]`);
      else entries.push({ path, field, required: field.required === true });
    }
  };
  visit(contract.body, '');
  return entries;
}

function sampleOf(field: Field): unknown {
  switch (field.kind) {
    case 'group':
      return present(field);
    case 'array':
      return [present(field.of)];
    case 'map':
      return mapSamples(field).valid;
    default:
      return validSample(field);
  }
}

/** The required members of a group (recursively). */
function fill(group: GroupField): Json {
  const out: Json = {};
  for (const [name, field] of Object.entries(group.fields))
    if (field.required) out[name] = sampleOf(field);
  return out;
}

/** A group with at least one member, so that it is not absent. */
function present(group: GroupField): Json {
  const out = fill(group);
  if (Object.keys(out).length > 0) return out;
  const [name, field] = Object.entries(group.fields)[0];
  return { [name]: sampleOf(field) };
}

const segmentsOf = (path: string) =>
  path.split('.').map((s) => ({ name: s.replace(/\[0\]$/, ''), indexed: s.endsWith('[0]') }));

export function valueAt(body: Json, path: string): unknown {
  let value: unknown = body;
  for (const { name, indexed } of segmentsOf(path)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Json)[name];
    if (indexed) value = Array.isArray(value) ? value[0] : undefined;
  }
  return value;
}

/** Sets `path` (a contract path, arrays at [0]), creating enclosing groups with their required members. */
function place(contract: OperationContract, body: Json, path: string, value: unknown): void {
  const segments = segmentsOf(path);
  let target = body;
  let group = contract.body;
  segments.forEach(({ name, indexed }, i) => {
    const field = group.fields[name];
    if (!field) throw new Error(`${path} is not in the contract`);
    if (i === segments.length - 1) {
      target[name] = value;
      return;
    }
    if (field.kind === 'array' && indexed) {
      const list = (target[name] ??= []) as Json[];
      list[0] ??= fill(field.of);
      target = list[0];
      group = field.of;
    } else if (field.kind === 'group') {
      target = (target[name] ??= fill(field)) as Json;
      group = field;
    } else throw new Error(`${path} crosses a ${field.kind}`);
  });
}

/** Amounts the fixes below may compute with: conforming request decimals only, never a broken sample. */
const AMOUNT = /^(-?)([0-9]+)(?:\.([0-9]{1,3}))?$/;
const thousandths = (v: unknown): bigint | undefined => {
  const m = typeof v === 'string' && v.length <= 14 ? AMOUNT.exec(v) : null;
  if (!m) return undefined;
  const n = BigInt(m[2]) * 1000n + BigInt((m[3] ?? '').padEnd(3, '0'));
  return n > 1_000_000_000_000_000n ? undefined : m[1] ? -n : n;
};
/** The "absent means absent" reading: null, and objects with nothing present inside. */
const isSent = (v: unknown): boolean =>
  v !== undefined && v !== null && (typeof v !== 'object' || Object.values(v).some(isSent));
const decimal = (n: bigint): string => {
  const sign = n < 0n ? '-' : '';
  const abs = n < 0n ? -n : n;
  const fraction = (abs % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return `${sign}${abs / 1000n}${fraction ? `.${fraction}` : ''}`;
};

/** Adjusts a body so that the contract's cross-field rules hold. */
function satisfyChecks(contract: OperationContract, body: Json): void {
  const placed: { base: string; check: CrossCheck }[] = [];
  const visit = (group: GroupField, base: string): void => {
    for (const check of group.checks ?? []) placed.push({ base, check });
    for (const [name, field] of Object.entries(group.fields))
      if (field.kind === 'group') visit(field, base ? `${base}.${name}` : name);
  };
  visit(contract.body, '');
  const at = (base: string, path: string) => (base ? `${base}.${path}` : path);
  const rank: CrossCheck['check'][] = ['requiredWhen', 'oneOf', 'differs', 'itemSum', 'sumEquals'];
  placed.sort((a, b) => rank.indexOf(a.check.check) - rank.indexOf(b.check.check));
  for (const { base, check } of placed) {
    switch (check.check) {
      case 'requiredWhen':
        if (
          valueAt(body, at(base, check.when.field)) === check.when.equals &&
          !isSent(valueAt(body, at(base, check.field)))
        ) {
          place(contract, body, at(base, check.field), sampleAt(contract, at(base, check.field)));
        }
        break;
      case 'oneOf':
        if (!check.fields.some((f) => isSent(valueAt(body, at(base, f))))) {
          place(
            contract,
            body,
            at(base, check.fields[0]),
            sampleAt(contract, at(base, check.fields[0])),
          );
        }
        break;
      case 'differs': {
        const path = at(base, check.field);
        const mine = valueAt(body, path);
        if (mine !== undefined && mine === valueAt(body, at(base, check.from))) {
          place(
            contract,
            body,
            path,
            validSamples(leafAt(contract, path)).find((v) => v !== mine),
          );
        }
        break;
      }
      case 'itemSum': {
        const items = valueAt(body, at(base, check.items));
        const target = at(base, check.target);
        if (!Array.isArray(items) || thousandths(valueAt(body, target)) === undefined) break;
        const priced = items.filter((item: Json) => item[check.price] !== undefined);
        const sum = priced.reduce(
          (total: bigint, item: Json) =>
            total + BigInt(item[check.quantity] as string) * (thousandths(item[check.price]) ?? 0n),
          0n,
        );
        if (priced.length > 0) place(contract, body, target, decimal(sum));
        break;
      }
      case 'sumEquals': {
        const target = at(base, check.target);
        const adds = check.add
          .map((p) => valueAt(body, at(base, p)))
          .filter((v) => v !== undefined);
        if (adds.length === 0 || thousandths(valueAt(body, target)) === undefined) break;
        const subtracts = check.subtract
          .map((p) => valueAt(body, at(base, p)))
          .filter((v) => v !== undefined);
        const values = [...adds, ...subtracts].map(thousandths);
        if (values.some((v) => v === undefined || v < 0n)) break;
        const total =
          adds.reduce((t: bigint, v) => t + (thousandths(v) as bigint), 0n) -
          subtracts.reduce((t: bigint, v) => t + (thousandths(v) as bigint), 0n);
        place(contract, body, target, decimal(total));
        break;
      }
    }
  }
}

export function fieldAtPath(contract: OperationContract, path: string): Field {
  let field: Field = contract.body;
  for (const { name } of segmentsOf(path)) {
    const group: Field = field.kind === 'array' ? field.of : field;
    if (group.kind !== 'group') throw new Error(`${path} is not in the contract`);
    field = group.fields[name];
  }
  return field;
}

function leafAt(contract: OperationContract, path: string): LeafField {
  const field = fieldAtPath(contract, path);
  if (field.kind === 'group' || field.kind === 'array' || field.kind === 'map')
    throw new Error(`${path} is not a leaf`);
  return field;
}

export function sampleAt(contract: OperationContract, path: string): unknown {
  return sampleOf(fieldAtPath(contract, path));
}

export function minimalBody(contract: OperationContract): Json {
  const body = fill(contract.body);
  satisfyChecks(contract, body);
  return body;
}

/** The minimal body with the given fields set (and whatever the rules then need). */
export function bodyWith(contract: OperationContract, fields: Record<string, unknown>): Json {
  const body = fill(contract.body);
  for (const [path, value] of Object.entries(fields)) place(contract, body, path, value);
  satisfyChecks(contract, body);
  return body;
}

/** Removes `path` from a body built here. */
export function without(body: Json, path: string): Json {
  const segments = segmentsOf(path);
  const last = segments.pop() as { name: string };
  let target: unknown = body;
  for (const { name, indexed } of segments) {
    target = (target as Json)[name];
    if (indexed) target = (target as Json[])[0];
  }
  delete (target as Json)[last.name];
  return body;
}

/** A sibling of `path` in the same group, other than it, to keep the group present when it is removed. */
export function siblingOf(contract: OperationContract, path: string): string | undefined {
  const cut = path.lastIndexOf('.');
  const parent = cut < 0 ? '' : path.slice(0, cut);
  const own = path.slice(cut + 1);
  const group = parent === '' ? contract.body : fieldAtPath(contract, parent);
  const of = group.kind === 'array' ? group.of : group;
  if (of.kind !== 'group') return undefined;
  const name = Object.keys(of.fields).find(
    (n) => n !== own && of.fields[n].kind !== 'group' && of.fields[n].kind !== 'array',
  );
  return name === undefined ? undefined : parent ? `${parent}.${name}` : name;
}

export interface StructureEntry {
  readonly path: string;
  readonly field: GroupField | ArrayField;
}

/** Every group and array of a contract (the body itself excluded). */
export function structureEntries(contract: OperationContract): StructureEntry[] {
  const entries: StructureEntry[] = [];
  const visit = (group: GroupField, prefix: string): void => {
    for (const [name, field] of Object.entries(group.fields)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (field.kind === 'group') {
        entries.push({ path, field });
        visit(field, path);
      } else if (field.kind === 'array') {
        entries.push({ path, field });
        visit(field.of, `${path}[0]`);
      }
    }
  };
  visit(contract.body, '');
  return entries;
}

/** A group's conforming content, for structure tests. */
export function presentGroup(group: GroupField): Json {
  return present(group);
}
