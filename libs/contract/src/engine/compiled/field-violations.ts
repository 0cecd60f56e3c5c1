import type { Field, GroupField, OperationContract } from '../../model/field';
import { childPath, firstRequiredPath, indexPath, requiredCondition } from '../contract-paths';
import { invalidValue, missingField, unknownField } from '../explain';
import { leafCheck, mapCheck } from '../leaf-rules';
import type { Violation } from '../request-validator';

/**
 * Every violation of a normalized body, exactly the set the class-validator engine reports,
 * including what it finds inside values of the wrong shape (a group sent as a list has each element
 * judged as that group). The single-pass walk never needs those, as their container comes first;
 * the general pipeline, which judges the bodies that walk cannot vouch for, does.
 */
export function fieldViolations(
  body: Readonly<Record<string, unknown>>,
  contract: OperationContract,
): Violation[] {
  const found: Violation[] = [];
  const invalid = (path: string, value: unknown, sensitive: boolean, reason: string): void => {
    found.push({
      path,
      validationType: 'INVALID',
      explanation: invalidValue(value, sensitive, reason),
    });
  };
  const notAnObject = (path: string, value: unknown): void =>
    invalid(
      path,
      value,
      true,
      value === null ? 'A list element must not be null or empty' : 'It must be a JSON object',
    );

  const group = (value: Readonly<Record<string, unknown>>, of: GroupField, path: string): void => {
    for (const name of Object.keys(value)) {
      if (!Object.hasOwn(of.fields, name)) {
        const at = childPath(path, name);
        found.push({
          path: at,
          validationType: 'INVALID',
          explanation: unknownField(at, contract.apiOperation),
        });
      }
    }
    for (const [name, field] of Object.entries(of.fields)) {
      const at = childPath(path, name);
      if (value[name] !== undefined) member(value[name], field, at);
      else if (field.required) {
        const missing = field.kind === 'group' ? firstRequiredPath(field, at) : at;
        const explanation = missingField(missing, requiredCondition(contract.body, missing));
        found.push({ path: missing, validationType: 'MISSING', explanation });
      }
    }
  };

  /** class-validator's nested validation: lists are entered element by element, at any depth. */
  const nested = (value: unknown, of: GroupField, path: string, inList: boolean): void => {
    if (Array.isArray(value))
      value.forEach(
        (element, i) => element !== null && nested(element, of, indexPath(path, i), true),
      );
    else if (typeof value === 'object' && value !== null)
      group(value as Record<string, unknown>, of, path);
    else if (inList) notAnObject(path, value);
  };

  const member = (value: unknown, field: Field, path: string): void => {
    const sensitive = field.sensitive === true;
    switch (field.kind) {
      case 'group':
        if (typeof value !== 'object' || Array.isArray(value))
          invalid(path, value, sensitive, 'It must be a JSON object');
        return nested(value, field, path, false);
      case 'array': {
        if (!Array.isArray(value)) invalid(path, value, sensitive, 'It must be a JSON array');
        else if (value.length > field.maxItems)
          invalid(
            path,
            value,
            sensitive,
            `It has ${value.length} elements, but must have at most ${field.maxItems}`,
          );
        else {
          const odd = value.findIndex(
            (e) => typeof e !== 'object' || e === null || Array.isArray(e),
          );
          if (odd >= 0) notAnObject(indexPath(path, odd), value[odd]);
        }
        return nested(value, field.of, path, false);
      }
      case 'map': {
        const fault = mapCheck(field)(value);
        if (!fault) return;
        if (fault.member === undefined) return invalid(path, value, sensitive, fault.reason);
        const at = childPath(path, fault.member);
        if (!fault.inName)
          return invalid(
            at,
            (value as Record<string, unknown>)[fault.member],
            sensitive,
            fault.reason,
          );
        found.push({
          path: at,
          validationType: 'INVALID',
          explanation: `Field name '${fault.member}' is invalid. ${fault.reason}`,
        });
        return;
      }
      default: {
        const reason = leafCheck(field)(value);
        if (reason !== undefined) invalid(path, value, sensitive, reason);
      }
    }
  };

  group(body, contract.body, '');
  return found;
}
