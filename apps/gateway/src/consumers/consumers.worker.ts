import 'reflect-metadata';
import { DatabaseFileError } from '@gateway/database-files';
import { createLogger } from '@gateway/logging';
import { parentPort, workerData } from 'node:worker_threads';
import type { ConsumersSettings, FromConsumers, ToConsumers } from './consumers-protocol';
import { ConsumersRuntime } from './consumers.runtime';

/**
 * The consumers thread (ConsumersHost starts it with the settings as workerData): runs the
 * ConsumersRuntime and answers the main thread's questions. An exception nothing catches ends
 * the thread; the host logs it and starts another, which resumes from the checkpoints.
 */
async function run(port: NonNullable<typeof parentPort>): Promise<void> {
  const settings = workerData as ConsumersSettings;
  const logger = createLogger(settings.logLevel).child({ thread: 'consumers' });
  const post = (message: FromConsumers) => port.postMessage(message);
  let runtime: ConsumersRuntime;
  try {
    runtime = await ConsumersRuntime.start(settings, logger);
  } catch (error) {
    const { file, problem } =
      error instanceof DatabaseFileError ? error : { file: undefined, problem: String(error) };
    post({ type: 'refused', ...(file ? { file } : {}), problem });
    return port.close();
  }
  // An answer that fails is logged and not sent: the host gives up waiting (answerTimeoutMs).
  const answer = <T>(question: Promise<T>, send: (value: T) => void) =>
    void question.then(send, (error: Error) =>
      logger.warn({ err: error.message }, 'consumers status or metrics failed'),
    );
  port.on('message', (message: ToConsumers) => {
    switch (message.type) {
      case 'status':
        return answer(runtime.status(), (status) =>
          post({ type: 'status', id: message.id, status }),
        );
      case 'metrics':
        return answer(runtime.metrics(), (text) => post({ type: 'metrics', id: message.id, text }));
      case 'nudge':
        return runtime.nudge();
      case 'reload-merchants':
        return runtime.reloadMerchants();
      case 'stop':
        return void runtime.stop().then(() => {
          post({ type: 'stopped' });
          port.close();
        });
    }
  });
  post({ type: 'started' });
}

if (parentPort) void run(parentPort);
