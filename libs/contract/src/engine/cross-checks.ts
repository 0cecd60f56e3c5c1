import type { CrossCheck, GroupField, LeafRule } from '../model/field';
import { childPath, fieldAt, requiredCondition } from './contract-paths';
import { invalidValue, missingField } from './explain';
import { leafCheck, type LeafCheck } from './leaf-rules';
import type { Violation } from './request-validator';
import { formatThousandths, parseThousandths } from './thousandths';

/**
 * Rules across fields, run on the normalized body. Each one stays silent when its inputs are
 * themselves invalid: the field rule reports those, so a merchant is never told about a total
 * computed from a malformed amount.
 */
export type CompiledCheck = (body: Readonly<Record<string, unknown>>) => Violation | undefined;

type Getter = (body: Readonly<Record<string, unknown>>) => unknown;

function getter(path: string): Getter {
  const names = path.split('.');
  return (body) => {
    let value: unknown = body;
    for (const name of names) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      value = (value as Record<string, unknown>)[name];
    }
    return value;
  };
}

/** Reads an amount in thousandths, or undefined when the value breaks its own field rule. */
type AmountReader = (value: unknown) => bigint | undefined;

function amountReader(rule: LeafRule): AmountReader {
  const check = leafCheck(rule);
  return (value) => (check(value) === undefined ? parseThousandths(value) : undefined);
}

interface Term {
  readonly path: string;
  readonly read: AmountReader;
}

function sumEquals(target: Term, add: readonly Term[], subtract: readonly Term[]): CompiledCheck {
  const getTarget = getter(target.path);
  const terms = [
    ...add.map((t) => ({ ...t, sign: 1n })),
    ...subtract.map((t) => ({ ...t, sign: -1n })),
  ].map((t) => ({
    ...t,
    get: getter(t.path),
  }));
  const addGetters = add.map((t) => getter(t.path));
  return (body) => {
    if (addGetters.every((get) => get(body) === undefined)) return undefined;
    const stated = getTarget(body);
    const expected = target.read(stated);
    if (expected === undefined) return undefined;
    let total = 0n;
    for (const term of terms) {
      const value = term.get(body);
      if (value === undefined) continue;
      const amount = term.read(value);
      if (amount === undefined) return undefined;
      total += term.sign * amount;
    }
    if (total === expected) return undefined;
    // The formula names the terms given, built only for the error (this runs on every request).
    const used: string[] = [];
    for (const term of terms) {
      if (term.get(body) === undefined) continue;
      used.push(`${used.length === 0 ? '' : term.sign > 0n ? ' + ' : ' - '}${term.path}`);
    }
    return {
      path: target.path,
      validationType: 'INVALID',
      explanation: invalidValue(
        stated,
        false,
        `It must equal ${used.join('')}, which is ${formatThousandths(total)}`,
      ),
    };
  };
}

function itemSum(
  target: Term,
  items: string,
  quantity: string,
  price: Term,
  quantityValid: LeafCheck,
): CompiledCheck {
  const getTarget = getter(target.path);
  const getItems = getter(items);
  const priceName = price.path.slice(price.path.lastIndexOf('.') + 1);
  return (body) => {
    const stated = getTarget(body);
    const list = getItems(body);
    if (stated === undefined || !Array.isArray(list)) return undefined;
    const expected = target.read(stated);
    if (expected === undefined) return undefined;
    let total = 0n;
    let priced = false;
    for (const item of list) {
      if (typeof item !== 'object' || item === null) return undefined;
      const record = item as Record<string, unknown>;
      if (record[priceName] === undefined) continue;
      const count = record[quantity];
      const each = price.read(record[priceName]);
      if (quantityValid(count) !== undefined || each === undefined) return undefined;
      total += BigInt(count as string) * each;
      priced = true;
    }
    if (!priced || total === expected) return undefined;
    return {
      path: target.path,
      validationType: 'INVALID',
      explanation: invalidValue(
        stated,
        false,
        `It must equal the sum of ${quantity} x ${priceName} over ${items}, which is ${formatThousandths(total)}`,
      ),
    };
  };
}

function compileCheck(body: GroupField, base: string, check: CrossCheck): CompiledCheck {
  const at = (relative: string): string => {
    const path = childPath(base, relative);
    if (!fieldAt(body, path))
      throw new Error(`Cross-field check names ${path}, which the contract lacks`);
    return path;
  };
  const ruleAt = (relative: string): LeafRule => {
    const field = fieldAt(body, at(relative));
    if (!field || field.kind === 'group' || field.kind === 'array' || field.kind === 'map') {
      throw new Error(`Cross-field check needs a leaf at ${childPath(base, relative)}`);
    }
    return field;
  };
  const term = (relative: string): Term => ({
    path: at(relative),
    read: amountReader(ruleAt(relative)),
  });
  switch (check.check) {
    case 'sumEquals':
      return sumEquals(term(check.target), check.add.map(term), check.subtract.map(term));
    case 'itemSum': {
      const items = `${check.items}.`;
      return itemSum(
        term(check.target),
        at(check.items),
        check.quantity,
        term(items + check.price),
        leafCheck(ruleAt(items + check.quantity)),
      );
    }
    case 'requiredWhen': {
      const field = at(check.field);
      const when = at(check.when.field);
      const [getField, getWhen] = [getter(field), getter(when)];
      const explanation = missingField(field, ` when ${when} is ${check.when.equals}`);
      return (value) =>
        getWhen(value) === check.when.equals && getField(value) === undefined
          ? { path: field, validationType: 'MISSING', explanation }
          : undefined;
    }
    case 'differs': {
      const field = at(check.field);
      const from = at(check.from);
      const [getField, getFrom] = [getter(field), getter(from)];
      return (value) => {
        const mine = getField(value);
        return typeof mine === 'string' && mine === getFrom(value)
          ? {
              path: field,
              validationType: 'INVALID',
              explanation: invalidValue(mine, false, `It must differ from ${from}`),
            }
          : undefined;
      };
    }
    case 'oneOf': {
      const paths = check.fields.map(at);
      const getters = paths.map(getter);
      const explanation = `${missingField(paths[0], requiredCondition(body, paths[0]))}: supply ${paths.join(' or ')}`;
      return (value) =>
        getters.every((get) => get(value) === undefined)
          ? { path: paths[0], validationType: 'MISSING', explanation }
          : undefined;
    }
  }
}

/** Every check of the contract, from the body and the groups within it (arrays excluded). */
export function compileChecks(body: GroupField): CompiledCheck[] {
  const compiled: CompiledCheck[] = [];
  const visit = (group: GroupField, base: string): void => {
    for (const check of group.checks ?? []) compiled.push(compileCheck(body, base, check));
    for (const [name, field] of Object.entries(group.fields)) {
      if (field.kind === 'group') visit(field, childPath(base, name));
      else if (field.kind === 'array' && field.of.checks)
        throw new Error(`Checks inside array ${name} are not supported`);
    }
  };
  visit(body, '');
  return compiled;
}
