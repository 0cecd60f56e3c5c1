import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsObject,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import type { Field, Fields, GroupField } from '../../model/field';
import { leafCheck, mapCheck } from '../leaf-rules';
import { rememberMetadataOf } from './metadata-cache';

/**
 * Generates one class per contract group and decorates it from the rule data, the way a
 * hand-written DTO would be decorated. Groups are shared between contracts, and so are their
 * classes: class-validator scans every registered class when it validates an object, so fewer
 * classes is faster.
 */

export type ContractClass = new () => object;

/** Constraint names of the leaf and map rules, as they appear in class-validator errors. */
export const LEAF_CONSTRAINT = 'contractLeaf';
export const MAP_CONSTRAINT = 'contractMap';

/** Keyed by the members: a group marked required elsewhere is the same class. */
const classes = new Map<Fields, ContractClass>();
const members = new WeakMap<object, Fields>();

/** The members a generated class was made from (for explaining its errors). */
export function fieldsOfClass(cls: unknown): Fields | undefined {
  return typeof cls === 'function' ? members.get(cls) : undefined;
}

export function classFor(group: GroupField, name: string): ContractClass {
  const existing = classes.get(group.fields);
  if (existing) return existing;
  // A named class makes class-validator's messages and stack traces readable.
  const cls = { [name]: class {} }[name] as ContractClass;
  classes.set(group.fields, cls);
  members.set(cls, group.fields);
  for (const [member, field] of Object.entries(group.fields))
    decorate(cls.prototype, member, field, `${name}_${member}`);
  rememberMetadataOf(cls);
  return cls;
}

/**
 * Optional members carry no IsOptional: the engine validates with skipMissingProperties, which has
 * the same effect on absent members for one metadata entry less per member.
 */
function decorate(prototype: object, member: string, field: Field, childName: string): void {
  const apply = (...decorators: PropertyDecorator[]): void =>
    decorators.forEach((d) => d(prototype, member));
  if (field.required) apply(IsDefined());
  switch (field.kind) {
    case 'group': {
      const child = classFor(field, childName);
      apply(
        IsObject(),
        ValidateNested(),
        Type(() => child),
      );
      return;
    }
    case 'array': {
      const child = classFor(field.of, childName);
      apply(
        IsArray(),
        ArrayMaxSize(field.maxItems),
        IsObject({ each: true }),
        ValidateNested({ each: true }),
        Type(() => child),
      );
      return;
    }
    case 'map': {
      const check = mapCheck(field);
      apply(
        ValidateBy({
          name: MAP_CONSTRAINT,
          validator: { validate: (value: unknown) => check(value) === undefined },
        }),
      );
      return;
    }
    default: {
      const check = leafCheck(field);
      apply(
        ValidateBy({
          name: LEAF_CONSTRAINT,
          validator: { validate: (value: unknown) => check(value) === undefined },
        }),
      );
    }
  }
}
