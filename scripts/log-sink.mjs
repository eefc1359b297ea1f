// npm start pipes each app's output through this: every line into its log file (capped and rotated,
// see CappedLogFile), warnings and errors (and anything not JSON) readable on the terminal.
// Usage: node scripts/log-sink.mjs <file>   (LOG_FILE_MAX_MB, default 10: the cap of one file)
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const { CappedLogFile, terminalLine } = require('../dist/libs/observability/src/log-file.js');

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node scripts/log-sink.mjs <log file>\n');
  process.exit(2);
}
const maxMb = Number(process.env.LOG_FILE_MAX_MB || 10);
if (!(maxMb > 0)) {
  process.stderr.write(`LOG_FILE_MAX_MB must be a positive number of megabytes, not "${process.env.LOG_FILE_MAX_MB}"\n`);
  process.exit(2);
}
const log = new CappedLogFile(file, Math.round(maxMb * 1024 * 1024));
const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
// The app's own signals end it; this reads on until its output closes, losing no line.
process.on('SIGINT', () => undefined);
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  log.write(`${line}\n`);
  const shown = terminalLine(line, color);
  if (shown) process.stdout.write(shown);
}
log.close();
