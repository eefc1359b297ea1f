// A language server that speaks LSP over stdio (vscode-jsonrpc, as pyright does) and then stops
// answering, for the hung-pyright tests of py-checker.e2e-spec.ts. What it does is chosen by the
// name of the script it is run from (the test writes one-line scripts requiring this file):
// `hang-at-start*` never answers `initialize`;
// `hang-after-N*` starts, says it has listed the workspace's files as pyright does, answers N
// `textDocument/definition` requests (no definition) and then none. It writes its pid to
// `<script>.pid` so the test can see it was stopped.
const fs = require('node:fs');
const path = require('node:path');
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = require('vscode-jsonrpc/node');

const name = path.basename(process.argv[1]);
fs.writeFileSync(`${process.argv[1]}.pid`, String(process.pid));
const conn = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
const never = () => new Promise(() => undefined);
if (name.startsWith('hang-at-start')) {
  conn.onRequest(never);
} else {
  let answers = Number(/hang-after-(\d+)/.exec(name)?.[1] ?? 0);
  conn.onRequest('initialize', () => ({ capabilities: { definitionProvider: true } }));
  conn.onNotification('initialized', () => {
    conn.sendNotification('window/logMessage', { type: 3, message: 'Found 1 source file' });
  });
  conn.onRequest('textDocument/definition', () => (answers-- > 0 ? null : never()));
  conn.onRequest(never);
}
conn.onNotification(() => undefined);
conn.listen();
