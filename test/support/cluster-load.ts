import type { ApiResponse, merchantClient } from './gateway-process';
import { authorizeBody } from './gateway-process';

type Api = ReturnType<typeof merchantClient>;

/** What the merchants' clients were answered: every 201, by request path. */
export interface ClusterLoad {
  readonly created: Map<string, ApiResponse>;
  /** Answers other than 201 that a retry did not turn into a 201 (should stay empty). */
  readonly refused: string[];
  /** Requests answered 502 or cut off and retried unchanged, as a merchant's client would. */
  retries: number;
  stop(): Promise<void>;
}

/**
 * `clients` merchants' clients, each authorizing (with `order`'s fields added) and then capturing
 * new orders, one after the other, until stopped. A request the balancer could not complete (502, a connection cut) is
 * sent again unchanged: the gateway answers a retry as the original, on whatever node.
 */
export function startClusterLoad(
  api: Api,
  prefix: string,
  clients = 4,
  order: Record<string, unknown> = {},
): ClusterLoad {
  let running = true;
  const load: ClusterLoad = {
    created: new Map(),
    refused: [],
    retries: 0,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
  const send = async (path: string, body: unknown): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const answer = await api.put(path, body).catch(() => undefined);
      if (answer?.status === 201) {
        load.created.set(path, answer);
        return;
      }
      if ((answer && answer.status !== 502) || attempt === 20) {
        load.refused.push(`${path}: ${answer?.status} ${answer?.text}`);
        return;
      }
      load.retries++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let n = 1; running; n++) {
      const path = `/order/${prefix}-${client}-${n}`;
      await send(
        `${path}/transaction/1`,
        authorizeBody('20.00', undefined, {
          order: { amount: '20.00', currency: 'USD', ...order },
        }),
      );
      await send(`${path}/transaction/2`, {
        apiOperation: 'CAPTURE',
        transaction: { amount: '20.00', currency: 'USD' },
      });
    }
  });
  return load;
}
