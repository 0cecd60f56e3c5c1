// Child process for the crash test: appends until killed, printing each acknowledged append.
// Plain JS plus the TypeScript require hook, so it loads the TypeScript sources without a build.
'use strict';
require('./ts-register');
const { randomUUID } = require('node:crypto');
const { SqliteEventStore } = require('../../src/index.ts');

const [filename, writers = '16'] = process.argv.slice(2);
const EVENTS_PER_APPEND = 3;

async function writer(store, w) {
  const streamId = `crash:${w}`;
  let expected = 'no_stream';
  for (let n = 0; ; n++) {
    const events = Array.from({ length: EVENTS_PER_APPEND }, (_, k) => ({
      eventId: randomUUID(),
      type: 'Step',
      data: { n, k },
      metadata: {},
    }));
    const { nextExpectedRevision } = await store.appendToStream(streamId, events, expected);
    expected = nextExpectedRevision;
    process.stdout.write(`ACK ${streamId} ${nextExpectedRevision}\n`);
  }
}

SqliteEventStore.open({ filename }).then((store) => {
  process.stdout.write('READY\n');
  for (let w = 0; w < Number(writers); w++)
    writer(store, w).catch((error) => {
      process.stderr.write(`writer ${w}: ${error.message}\n`);
      process.exit(1);
    });
});
