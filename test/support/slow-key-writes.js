// Preloaded into a gateway (NODE_OPTIONS=--require) by the key race test: the first write to a
// file whose name holds ".key" waits SLOW_KEY_WRITE_MS first, as on a busy disk, which widens
// the window between a key file's creation and its content to one processes cannot miss.
'use strict';
const fs = require('node:fs');
const { openSync, writeSync } = fs;
const delayMs = Number(process.env.SLOW_KEY_WRITE_MS || 1000);
const keyFiles = new Set();

fs.openSync = function (path, ...rest) {
  const fd = openSync.call(this, path, ...rest);
  if (String(path).includes('.key')) keyFiles.add(fd);
  return fd;
};
fs.writeSync = function (fd, ...rest) {
  if (keyFiles.delete(fd)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delayMs);
  return writeSync.call(this, fd, ...rest);
};
