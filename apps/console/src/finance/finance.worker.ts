import { parentPort, workerData } from 'node:worker_threads';
import { FinanceData, FinanceUnavailable } from './finance-data';
import type { FinanceRequest, FinanceResponse } from './finance-thread';

/**
 * The finance calls off the console's request thread (finance-thread.ts says why): each request
 * answered with its id, the answer or what went wrong. SQLite reads here block only this thread.
 */
const data = new FinanceData(workerData.dataDir, workerData.settlementDir);
const port = parentPort!;

async function answer(request: FinanceRequest): Promise<unknown> {
  if (request.call === 'daily') return data.daily(request.query);
  if (request.call === 'trialBalance') return data.trialBalance(request.asOf);
  return data.reconcile();
}

port.on('message', (request: FinanceRequest) => {
  answer(request).then(
    (result) => port.postMessage({ id: request.id, result } satisfies FinanceResponse),
    (error: Error) =>
      port.postMessage({
        id: request.id,
        error: error.message,
        unavailable: error instanceof FinanceUnavailable,
      } satisfies FinanceResponse),
  );
});
