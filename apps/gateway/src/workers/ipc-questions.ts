import type { Answer, Envelope } from './workers-protocol';

type Send = (message: Envelope<unknown, unknown>, done: (error: Error | null) => void) => void;

/**
 * One side of the question-and-answer traffic on an IPC channel: `ask` sends a question and
 * resolves with its answer; `answerWith` answers the other side's questions; `note` sends what
 * gets no answer. A question still open when the channel closes (`channelClosed`) is rejected:
 * its outcome is unknown. Answers ready in one turn of the event loop go as one message (a write
 * to the channel costs more than the answer: the answers to one group commit's appends resolve
 * together).
 */
export class IpcQuestions<Question, Note = never> {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (answer: unknown) => void; reject: (error: Error) => void }
  >();
  private answers: Answer[] = [];

  constructor(private readonly send: Send) {}

  /** Without `timeoutMs`, waits as long as the channel is open (an append's commit has its own). */
  ask<Answer>(question: Question, timeoutMs?: number): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (answer: unknown) => void, reject });
      this.send({ type: 'ask', id, question }, (error) => {
        if (error) this.settle(id, undefined, `not sent: ${error.message}`);
      });
      if (timeoutMs !== undefined)
        setTimeout(
          () => this.settle(id, undefined, `no answer within ${timeoutMs} ms`),
          timeoutMs,
        ).unref();
    });
  }

  note(note: Note): void {
    this.send({ type: 'note', note }, () => undefined);
  }

  /** Takes the answers to this side's questions; false for any other message. */
  received(message: Envelope<unknown, unknown>): boolean {
    if (message.type !== 'answers') return false;
    for (const { id, answer, error } of message.answers) this.settle(id, answer, error);
    return true;
  }

  /** Answers a question of the other side with what `answer` resolves to, or its error's message. */
  answerWith(id: number, answer: Promise<unknown>): void {
    answer.then(
      (value) => this.reply({ id, answer: value }),
      (error: Error) => this.reply({ id, error: error.message }),
    );
  }

  private reply(answer: Answer): void {
    if (this.answers.push(answer) > 1) return;
    setImmediate(() => {
      const answers = this.answers;
      this.answers = [];
      this.send({ type: 'answers', answers }, () => undefined);
    });
  }

  channelClosed(reason: string): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, undefined, reason);
  }

  private settle(id: number, answer: unknown, error: string | undefined): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    if (error === undefined) waiter.resolve(answer);
    else waiter.reject(new Error(error));
  }
}
