import type { FieldError } from './api-error';
import { classValidatorEngine } from './engine/class-validator/class-validator-engine';
import { compiledEngine } from './engine/compiled/compiled-engine';
import { childPath, declarationIndexOf, indexPath } from './engine/contract-paths';
import { compileChecks, type CompiledCheck } from './engine/cross-checks';
import { firstInDocumentOrder } from './engine/document-order';
import { integersAsNumbers } from './engine/integer-strings';
import {
  invalidValue,
  missingField,
  redactExplanation,
  redactPath,
  unknownField,
} from './engine/explain';
import {
  firstTooDeep,
  isInheritedName,
  isPresent,
  normalize,
  tooDeepViolation,
} from './engine/normalize';
import type {
  Judgement,
  RequestValidator,
  ValidatorEngine,
  Violation,
} from './engine/request-validator';
import type { OperationContract } from './model/field';
import {
  allContracts,
  API_OPERATIONS,
  isApiOperation,
  isSupportedVersion,
  MAX_VERSION,
  MIN_VERSION,
  resolveContract,
} from './operations/registry';

/** A refusal that names no field: the body is not a JSON object, or the version is unsupported. */
export interface BodyError {
  readonly field?: undefined;
  readonly validationType?: undefined;
  readonly explanation: string;
}

export type RequestError = FieldError | BodyError;

export type ValidationResult<E = FieldError> =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly error: E };

/**
 * `compiled` serves requests; `class-validator` is the reference it must agree with, kept for the
 * differential tests and the benchmark.
 */
export type EngineName = 'compiled' | 'class-validator';

const engines: Record<EngineName, ValidatorEngine> = {
  compiled: compiledEngine,
  'class-validator': classValidatorEngine,
};

interface CompiledContract {
  readonly validator: RequestValidator;
  readonly checks: readonly CompiledCheck[];
  readonly declarationIndex: (path: string) => number;
}

const compiled: Record<EngineName, WeakMap<OperationContract, CompiledContract>> = {
  compiled: new WeakMap(),
  'class-validator': new WeakMap(),
};

function compile(contract: OperationContract, engine: EngineName): CompiledContract {
  let result = compiled[engine].get(contract);
  if (!result) {
    result = {
      validator: engines[engine].compile(contract),
      checks: compileChecks(contract.body),
      declarationIndex: declarationIndexOf(contract.body),
    };
    compiled[engine].set(contract, result);
  }
  return result;
}

// The serving engine is built when the gateway starts, not on the first request; the reference
// engine only when first asked for.
for (const contract of allContracts) compile(contract, 'compiled');

export function isJsonObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** Present members named like Object.prototype properties: normalization left them out, they are unknown. */
function inheritedNameViolations(
  sent: unknown,
  path: string,
  apiOperation: string,
  found: Violation[],
): void {
  if (Array.isArray(sent))
    sent.forEach((element, i) =>
      inheritedNameViolations(element, indexPath(path, i), apiOperation, found),
    );
  else if (isJsonObject(sent)) {
    for (const [name, member] of Object.entries(sent)) {
      const at = childPath(path, name);
      if (isInheritedName(name) && isPresent(member)) {
        found.push({
          path: at,
          validationType: 'INVALID',
          explanation: unknownField(at, apiOperation),
        });
      } else inheritedNameViolations(member, at, apiOperation, found);
    }
  }
}

/**
 * The general pipeline, for any engine: normalize, collect every violation, then pick the first
 * in document order.
 */
function judgeInGeneral(
  { validator, checks, declarationIndex }: CompiledContract,
  apiOperation: string,
  sent: Record<string, unknown>,
): Judgement {
  const { value, hasInheritedNames, tooDeep } = normalize(sent);
  if (tooDeep) return { ok: false, violation: tooDeepViolation(firstTooDeep(sent) as string) };
  const normalized = (value ?? {}) as Record<string, unknown>;
  const fieldViolations = validator.violations(normalized);
  let violations: Violation[] | undefined;
  for (const check of checks) {
    const violation = check(normalized);
    if (violation) (violations ??= []).push(violation);
  }
  if (fieldViolations.length === 0 && !violations && !hasInheritedNames)
    return { ok: true, value: normalized };
  const all = [...fieldViolations, ...(violations ?? [])];
  if (hasInheritedNames) inheritedNameViolations(sent, '', apiOperation, all);
  return { ok: false, violation: firstInDocumentOrder(all, sent, declarationIndex) };
}

function toFieldError(violation: Violation): FieldError {
  return {
    field: redactPath(violation.path),
    validationType: violation.validationType,
    explanation: redactExplanation(violation.explanation),
  };
}

/**
 * Validates a body against one contract. `value` is the body with absent members removed (values
 * as sent but for integers sent as strings, which are numbers; with the compiled engine, members
 * left unchanged are the very objects sent); the error
 * is the first violation in document order. A body that is not a JSON object counts as one with
 * nothing supplied (`validateBody` names that case itself).
 */
export function validateRequest(
  contract: OperationContract,
  body: unknown,
  engine: EngineName = 'compiled',
): ValidationResult {
  const compiledContract = compile(contract, engine);
  const sent = isJsonObject(body) ? body : {};
  const judgement: Judgement =
    compiledContract.validator.judge?.(sent) ??
    judgeInGeneral(compiledContract, contract.apiOperation, sent);
  if (judgement.ok) return { ok: true, value: integersAsNumbers(contract.body, judgement.value) };
  return { ok: false, error: toFieldError(judgement.violation) };
}

/**
 * The whole check of a request body at an API version: a JSON object, a known apiOperation, a
 * supported version, then the operation's contract. apiOperation is judged before anything else
 * because it selects the contract.
 */
export function validateBody(
  version: number,
  body: unknown,
  engine: EngineName = 'compiled',
): ValidationResult<RequestError> {
  if (!isJsonObject(body))
    return { ok: false, error: { explanation: 'The request body must be a JSON object' } };
  const apiOperation = body.apiOperation;
  if (!isPresent(apiOperation)) {
    return {
      ok: false,
      error: {
        field: 'apiOperation',
        validationType: 'MISSING',
        explanation: missingField('apiOperation', ''),
      },
    };
  }
  if (!isApiOperation(apiOperation)) {
    const explanation = redactExplanation(
      invalidValue(apiOperation, false, `It must be one of: ${API_OPERATIONS.join(', ')}`),
    );
    return { ok: false, error: { field: 'apiOperation', validationType: 'INVALID', explanation } };
  }
  if (!isSupportedVersion(version)) {
    const explanation = `API version ${String(version)} is not supported. It must be an integer from ${MIN_VERSION} to ${MAX_VERSION}`;
    return { ok: false, error: { explanation: redactExplanation(explanation) } };
  }
  return validateRequest(resolveContract(apiOperation, version) as OperationContract, body, engine);
}

/** Whether a normalized request carries a source of funds (a linked refund must not, a standalone one must). */
export function hasSourceOfFunds(value: Readonly<Record<string, unknown>>): boolean {
  return value.sourceOfFunds !== undefined;
}

/**
 * The first sent field of the wrong form (type, format, length, unknown member) in document order,
 * judged before anything is looked up for the request: a payment session fills only absent fields,
 * so it cannot make a sent field right. Absent fields are not judged here; validateBody does that
 * once the session's fields are in.
 */
export function malformedField(
  version: number,
  body: Record<string, unknown>,
): FieldError | undefined {
  const { apiOperation } = body;
  if (!isApiOperation(apiOperation) || !isSupportedVersion(version)) return undefined;
  const contract = resolveContract(apiOperation, version) as OperationContract;
  const { validator, declarationIndex } = compile(contract, 'compiled');
  const { value, tooDeep } = normalize(body);
  if (tooDeep) return undefined;
  const malformed = validator
    .violations((value ?? {}) as Record<string, unknown>)
    .filter((v) => v.validationType !== 'MISSING');
  if (malformed.length === 0) return undefined;
  return toFieldError(firstInDocumentOrder(malformed, body, declarationIndex));
}
