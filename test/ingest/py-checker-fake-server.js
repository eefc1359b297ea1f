// A language server that speaks LSP over stdio (vscode-jsonrpc, as pyright does) and then stops
// answering, for the hung-pyright tests of py-checker.e2e-spec.ts. What it does is chosen by the
// name of the script it is run from (the test writes one-line scripts requiring this file):
// `hang-at-start*` never answers `initialize`;
// `hang-after-N*` starts, says it has listed the workspace's files as pyright does, answers N
// `textDocument/definition` requests (no definition) and then none;
// `by-name*` answers a definition request with the first `def`/`class` of the name at the position
// asked in the workspace's .py files (a name-based stand-in for pyright), but only once the file
// `<script>.go` exists (the test holds its answers back until then); `by-name-hang-after-N*` answers
// N that way and then none. It writes its pid to `<script>.pid` so the test can see it was stopped.
const fs = require('node:fs');
const path = require('node:path');
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = require('vscode-jsonrpc/node');

const name = path.basename(process.argv[1]);
fs.writeFileSync(`${process.argv[1]}.pid`, String(process.pid));
const conn = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
const never = () => new Promise(() => undefined);
const { fileURLToPath, pathToFileURL } = require('node:url');
/** The workspace's .py files, sorted (a stable first match). */
const pyFiles = (dir) => fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.py')).sort().map((f) => path.join(dir, String(f)));
if (name.startsWith('hang-at-start')) {
  conn.onRequest(never);
} else if (name.startsWith('by-name')) {
  let root = '';
  let answers = Number(/hang-after-(\d+)/.exec(name)?.[1] ?? Infinity);
  conn.onRequest('initialize', (p) => {
    root = fileURLToPath(p.rootUri);
    return { capabilities: { definitionProvider: true } };
  });
  conn.onNotification('initialized', () => {
    conn.sendNotification('window/logMessage', { type: 3, message: `Found ${pyFiles(root).length} source files` });
  });
  const gate = `${process.argv[1]}.go`;
  const opened = () => new Promise((resolve) => {
    const check = () => (fs.existsSync(gate) ? resolve() : setTimeout(check, 50));
    check();
  });
  conn.onRequest('textDocument/definition', async (p) => {
    await opened();
    if (answers-- <= 0) return never();
    const line = fs.readFileSync(fileURLToPath(p.textDocument.uri), 'utf8').split('\n')[p.position.line] ?? '';
    const word = /^\w+/.exec(line.slice(p.position.character))?.[0];
    if (!word) return null;
    const decl = new RegExp(`^\\s*(?:async\\s+)?(?:def|class)\\s+(${word})\\b`);
    for (const file of pyFiles(root)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        const m = decl.exec(lines[i]);
        if (!m) continue;
        const character = lines[i].indexOf(m[1], m[0].length - m[1].length);
        const range = { start: { line: i, character }, end: { line: i, character: character + word.length } };
        return [{ uri: pathToFileURL(file).href, range }];
      }
    }
    return null;
  });
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
