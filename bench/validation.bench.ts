import 'reflect-metadata';
import { resolveContract, validateRequest, type OperationContract } from '@gateway/contract';
import { benchBodies, runValidationBench } from '../libs/contract/bench/validation.bench';
import { fullAuthorizeBody } from '../libs/contract/test/support/full-authorize.fixture';

/**
 * `npm run build && node dist/bench/validation.bench.js`: request validation in µs per call, the
 * class-validator reference engine against the compiled one, on the built package.
 */
runValidationBench(
  validateRequest,
  resolveContract('AUTHORIZE', 39) as OperationContract,
  benchBodies(fullAuthorizeBody()),
);
