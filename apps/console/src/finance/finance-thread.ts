import type { DailyQuery, DailyRow, TrialBalance } from '@gateway/ledger';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { FinanceUnavailable, settlementFilesIn, type Reconciliation } from './finance-data';

type FinanceCall =
  | { readonly call: 'daily'; readonly query: DailyQuery }
  | { readonly call: 'trialBalance'; readonly asOf: string }
  | { readonly call: 'reconcile' };

export type FinanceRequest = FinanceCall & { readonly id: number };

export interface FinanceResponse {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: string;
  readonly unavailable?: boolean;
}

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/**
 * FinanceData's calls run in one worker thread, started when first asked. The ledger reads
 * SQLite synchronously: over the month seed (2,936 events) a daily report held the thread 250 ms,
 * a reconciliation of 60 files 264 ms and ledger.db's first catch-up 1 s (docs/console.md): on
 * the request thread every other user's page would wait that long. Calls run concurrently in the
 * worker; a worker that dies fails what it held and the next call starts another.
 */
export class FinanceThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly dataDir: string,
    readonly settlementDir: string,
  ) {}

  daily(query: DailyQuery): Promise<DailyRow[]> {
    return this.ask({ call: 'daily', query }) as Promise<DailyRow[]>;
  }

  trialBalance(asOf: string): Promise<TrialBalance> {
    return this.ask({ call: 'trialBalance', asOf }) as Promise<TrialBalance>;
  }

  reconcile(): Promise<Reconciliation> {
    return this.ask({ call: 'reconcile' }) as Promise<Reconciliation>;
  }

  /** A directory listing: cheap, on the request thread. */
  settlementFiles(): string[] {
    return settlementFilesIn(this.settlementDir);
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private ask(request: FinanceCall): Promise<unknown> {
    const id = ++this.nextId;
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  private start(): Worker {
    const worker = new Worker(join(__dirname, 'finance.worker.js'), {
      workerData: { dataDir: this.dataDir, settlementDir: this.settlementDir },
    });
    worker.on('message', ({ id, result, error, unavailable }: FinanceResponse) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (error === undefined) waiting?.resolve(result);
      else waiting?.reject(unavailable ? new FinanceUnavailable(error) : new Error(error));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the finance worker exited (${code})`)));
    return worker;
  }
}
