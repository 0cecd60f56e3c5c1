import { IpcQuestions } from '../../src/workers/ipc-questions';
import type { Envelope } from '../../src/workers/workers-protocol';

type Message = Envelope<unknown, unknown>;

/** Two sides joined by an in-memory channel that records every message sent each way. */
function pair() {
  const sent = { left: [] as Message[], right: [] as Message[] };
  let open = true;
  const channel =
    (from: 'left' | 'right') => (message: Message, done: (e: Error | null) => void) => {
      if (!open) return done(new Error('channel closed'));
      sent[from].push(message);
      setImmediate(() => deliver(from === 'left' ? right : left, message));
      done(null);
    };
  const left = new IpcQuestions<string>(channel('left'));
  const right = new IpcQuestions<string>(channel('right'));
  const deliver = (to: IpcQuestions<string>, message: Message) => {
    if (to.received(message) || message.type !== 'ask') return;
    to.answerWith(message.id, Promise.resolve(`answer to ${String(message.question)}`));
  };
  return { left, right, sent, close: () => (open = false) };
}

describe('IpcQuestions', () => {
  it('answers each question by its id, the answers of one turn in one message', async () => {
    const { left, sent } = pair();
    const answers = await Promise.all(['a', 'b', 'c'].map((q) => left.ask<string>(q)));
    expect(answers).toEqual(['answer to a', 'answer to b', 'answer to c']);
    expect(sent.left.map((m) => m.type)).toEqual(['ask', 'ask', 'ask']);
    expect(sent.right).toHaveLength(1);
    expect(sent.right[0]).toMatchObject({
      type: 'answers',
      answers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    });
  });

  it('passes on a refusal as an error with its message', async () => {
    const { left, right } = pair();
    const asked = left.ask('x');
    right.answerWith(1, Promise.reject(new Error('refused here')));
    await expect(asked).rejects.toThrow('refused here');
  });

  it('rejects what is open when the channel closes, what cannot be sent, and what is not answered in time', async () => {
    const { left, close } = pair();
    const never = new IpcQuestions<string>((_message, done) => done(null));
    const open = never.ask('lost');
    never.channelClosed('the other side is gone');
    await expect(open).rejects.toThrow('the other side is gone');
    await expect(never.ask('slow', 20)).rejects.toThrow('no answer within 20 ms');
    close();
    await expect(left.ask('late')).rejects.toThrow('not sent: channel closed');
  });
});
