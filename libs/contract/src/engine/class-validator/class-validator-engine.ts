import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError, type ValidatorOptions } from 'class-validator';
import type { Field, OperationContract } from '../../model/field';
import { childPath, firstRequiredPath, indexPath, requiredCondition } from '../contract-paths';
import { invalidValue, missingField, unknownField } from '../explain';
import { leafCheck, mapCheck } from '../leaf-rules';
import type { RequestValidator, ValidatorEngine, Violation } from '../request-validator';
import {
  classFor,
  fieldsOfClass,
  LEAF_CONSTRAINT,
  MAP_CONSTRAINT,
  type ContractClass,
} from './contract-classes';

/**
 * class-validator as the engine: the body is turned into instances of the generated classes
 * (class-transformer, following the Type decorators) and validated with unknown members forbidden.
 * Every error is collected, not just the first, because class-validator reports in declaration
 * order and the gateway answers in document order.
 */

/** The classes use no Expose or Exclude, so their lookups (a quarter of the transform) are skipped; Type still applies. */
const TRANSFORM = { ignoreDecorators: true };

/** Absent members were removed before, so "missing" means absent: only IsDefined looks at them. */
const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  skipMissingProperties: true,
  validationError: { target: true, value: true },
};

/** When several constraints of one member fail, the most basic one explains it. */
const PRECEDENCE = [
  'isDefined',
  'whitelistValidation',
  'isArray',
  'arrayMaxSize',
  'isObject',
  'nestedValidation',
  MAP_CONSTRAINT,
  LEAF_CONSTRAINT,
];

const NO_VIOLATIONS: readonly Violation[] = [];

const isJsonObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function notAnObject(path: string, value: unknown): Violation {
  const reason =
    value === null ? 'A list element must not be null or empty' : 'It must be a JSON object';
  return { path, validationType: 'INVALID', explanation: invalidValue(value, true, reason) };
}

class ClassValidatorRequestValidator implements RequestValidator {
  constructor(
    private readonly contract: OperationContract,
    private readonly bodyClass: ContractClass,
  ) {}

  violations(body: Readonly<Record<string, unknown>>): readonly Violation[] {
    const errors = validateSync(plainToInstance(this.bodyClass, body, TRANSFORM), OPTIONS);
    if (errors.length === 0) return NO_VIOLATIONS;
    const found: Violation[] = [];
    this.collect(errors, '', found);
    return found;
  }

  private collect(errors: readonly ValidationError[], parent: string, found: Violation[]): void {
    for (const error of errors) {
      const inArray = Array.isArray(error.target);
      const path = inArray
        ? indexPath(parent, Number(error.property))
        : childPath(parent, error.property);
      if (error.constraints) {
        const constraint = PRECEDENCE.find((name) => error.constraints?.[name] !== undefined) ?? '';
        found.push(
          inArray ? notAnObject(path, error.value) : this.explain(error, constraint, path),
        );
      }
      if (error.children?.length) this.collect(error.children, path, found);
    }
  }

  private explain(error: ValidationError, constraint: string, path: string): Violation {
    const fields = fieldsOfClass((error.target as object | undefined)?.constructor);
    const field: Field | undefined =
      fields && Object.hasOwn(fields, error.property) ? fields[error.property] : undefined;
    const value: unknown = error.value;
    if (!field || constraint === 'whitelistValidation') {
      return {
        path,
        validationType: 'INVALID',
        explanation: unknownField(path, this.contract.apiOperation),
      };
    }
    const invalid = (reason: string, at = path, shown = value): Violation => ({
      path: at,
      validationType: 'INVALID',
      explanation: invalidValue(shown, field.sensitive === true, reason),
    });
    if (constraint === 'isDefined') {
      const missing = field.kind === 'group' ? firstRequiredPath(field, path) : path;
      const explanation = missingField(missing, requiredCondition(this.contract.body, missing));
      return { path: missing, validationType: 'MISSING', explanation };
    }
    switch (field.kind) {
      case 'group':
        return invalid('It must be a JSON object');
      case 'array': {
        const list = value as unknown[];
        if (constraint === 'isArray') return invalid('It must be a JSON array');
        if (constraint === 'arrayMaxSize') {
          return invalid(`It has ${list.length} elements, but must have at most ${field.maxItems}`);
        }
        const index = list.findIndex((element) => !isJsonObject(element));
        return notAnObject(indexPath(path, index), list[index]);
      }
      case 'map': {
        const fault = mapCheck(field)(value) ?? { reason: 'It is invalid' };
        if (fault.member === undefined) return invalid(fault.reason);
        const at = childPath(path, fault.member);
        if (!fault.inName)
          return invalid(fault.reason, at, (value as Record<string, unknown>)[fault.member]);
        return {
          path: at,
          validationType: 'INVALID',
          explanation: `Field name '${fault.member}' is invalid. ${fault.reason}`,
        };
      }
      default:
        return invalid(leafCheck(field)(value) ?? 'It is invalid');
    }
  }
}

export const classValidatorEngine: ValidatorEngine = {
  compile(contract: OperationContract): RequestValidator {
    const name = `${contract.apiOperation}${contract.version ?? ''}`;
    return new ClassValidatorRequestValidator(contract, classFor(contract.body, name));
  },
};
