// Minimal require hook so plain `node` can load our TypeScript (crash-test child, bench)
// without ts-node: @swc/core is already a dev dependency, and transformSync keeps require synchronous.
'use strict';
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    swcrc: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
