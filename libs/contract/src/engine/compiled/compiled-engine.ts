import type { OperationContract } from '../../model/field';
import { declarationIndexOf } from '../contract-paths';
import { compileChecks } from '../cross-checks';
import type { Judgement, RequestValidator, ValidatorEngine } from '../request-validator';
import { fieldViolations } from './field-violations';
import { groupWalk, walkGroup } from './member-walks';
import { TooDeep, Walk } from './walk';

/**
 * The gateway's engine: each contract compiled at start-up into closures that judge a body in one
 * pass over it as sent, without class instances or a list of every violation. It gives exactly
 * the class-validator engine's answers (the differential tests hold it to that).
 */
export const compiledEngine: ValidatorEngine = {
  compile(contract: OperationContract): RequestValidator {
    const context = { contract, declarationIndex: declarationIndexOf(contract.body) };
    const body = groupWalk(contract.body);
    const checks = compileChecks(contract.body);
    return {
      violations: (normalized) => fieldViolations(normalized, contract),
      judge(sent): Judgement | undefined {
        const walk = new Walk(sent, context);
        let normalized: Record<string, unknown>;
        try {
          normalized = walkGroup(sent, body, walk, true) ?? {};
        } catch (error) {
          if (!(error instanceof TooDeep)) throw error;
          return walk.undecided ? undefined : { ok: false, violation: error.violation };
        }
        if (walk.undecided) return undefined;
        for (const check of checks) {
          const violation = check(normalized);
          if (violation) walk.located(violation);
        }
        const violation = walk.first();
        return violation ? { ok: false, violation } : { ok: true, value: normalized };
      },
    };
  },
};
