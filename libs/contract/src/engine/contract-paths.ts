import type { Field, GroupField } from '../model/field';

/**
 * Paths over a contract. Error paths are written as the merchant sent them (`order.item[2].name`);
 * contract paths drop the indexes (`order.item.name`).
 */

export function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

export function contractPath(path: string): string {
  return path.replace(/\[[0-9]+\]/g, '');
}

/** The enclosing path: `order.item[2].name` → `order.item[2]` → `order.item` → `order` → ``. */
export function parentPath(path: string): string {
  const m = /(?:\.[^.[]*|\[[0-9]+\])$/.exec(path);
  return m ? path.slice(0, m.index) : '';
}

/** The field a contract path names, looking through arrays; a path into a map stops at the map. */
export function fieldAt(body: GroupField, path: string): Field | undefined {
  let field: Field = body;
  for (const name of contractPath(path).split('.')) {
    const group: Field = field.kind === 'array' ? field.of : field;
    if (group.kind === 'map') return group;
    if (group.kind !== 'group' || !Object.hasOwn(group.fields, name)) return undefined;
    field = group.fields[name];
  }
  return field;
}

/** Pre-order position of every contract path: breaks ties between fields missing from one group. */
export function declarationOrder(body: GroupField): Map<string, number> {
  const order = new Map<string, number>();
  const visit = (group: GroupField, prefix: string): void => {
    for (const [name, field] of Object.entries(group.fields)) {
      const path = childPath(prefix, name);
      order.set(path, order.size);
      if (field.kind === 'group') visit(field, path);
      else if (field.kind === 'array') visit(field.of, path);
    }
  };
  visit(body, '');
  return order;
}

/**
 * Ties between violations at one position go to the field declared first; a member of a map (or
 * an unknown member) is placed with the nearest field the contract declares, others after all.
 */
export function declarationIndexOf(body: GroupField): (path: string) => number {
  const order = declarationOrder(body);
  return (path) => {
    for (let p = contractPath(path); p !== ''; p = p.slice(0, Math.max(p.lastIndexOf('.'), 0))) {
      const index = order.get(p);
      if (index !== undefined) return index;
    }
    return order.size;
  };
}

/**
 * What to name when a required group is absent: its first required member, descending while that
 * member is itself a group (`order` → `order.amount`); the group itself if nothing inside is required.
 */
export function firstRequiredPath(group: GroupField, path: string): string {
  for (const [name, field] of Object.entries(group.fields)) {
    if (!field.required) continue;
    return field.kind === 'group'
      ? firstRequiredPath(field, childPath(path, name))
      : childPath(path, name);
  }
  return path;
}

/**
 * Why a missing field is required: plainly, or only because an enclosing optional group or an
 * array element was sent (`when 3DSecure is supplied`).
 */
export function requiredCondition(body: GroupField, path: string): string {
  const names = path.split('.');
  let field: Field = body;
  let sent = '';
  let condition = '';
  for (let i = 0; i < names.length - 1; i++) {
    const name = names[i].replace(/\[[0-9]+\]$/, '');
    sent = i === 0 ? name : `${sent}.${name}`;
    if (field.kind !== 'group' || !Object.hasOwn(field.fields, name)) break;
    field = field.fields[name];
    if (field.kind === 'array') {
      condition = ` in each element of ${sent}`;
      field = field.of;
    } else if (!field.required) condition = ` when ${sent} is supplied`;
  }
  return condition;
}
