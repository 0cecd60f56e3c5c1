// Minimal require hook so plain `node` can load our TypeScript (crash-test child, benches, the
// key race test) without ts-node: TypeScript's own transpileModule, synchronous like require.
'use strict';
const { readFileSync } = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      esModuleInterop: true,
    },
  });
  module._compile(outputText, filename);
};
