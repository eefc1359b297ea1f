import * as fs from 'node:fs';
import { formatLogLine } from './logging';

/** pino's number for warn: what `npm start` shows on the terminal (the rest stays in the file). */
export const TERMINAL_MIN_LEVEL = 40;

/**
 * An append-only log file that never grows past its cap: when the next line would pass it, the
 * file becomes `<file>.1` (the previous `.1` is dropped) and a new one starts, so a file and its
 * predecessor hold at most twice the cap. A few lines of rotation rather than a dependency
 * (pino-roll, rotating-file-stream): `npm start` pipes both apps' output through this.
 */
export class CappedLogFile {
  private fd: number;
  private size: number;

  constructor(
    readonly file: string,
    readonly maxBytes: number,
  ) {
    this.fd = fs.openSync(file, 'a');
    this.size = fs.fstatSync(this.fd).size;
  }

  write(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    fs.writeSync(this.fd, text);
    this.size += bytes;
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private rotate(): void {
    fs.closeSync(this.fd);
    fs.renameSync(this.file, `${this.file}.1`);
    this.fd = fs.openSync(this.file, 'a');
    this.size = 0;
  }
}

/**
 * What of an app's output line belongs on the terminal beside the welcome screen: warnings and
 * errors, readable; anything not JSON as it is (a crash before the logger started). Null: file only.
 */
export function terminalLine(line: string, color = false): string | null {
  let level: unknown;
  try {
    level = (JSON.parse(line) as { level?: unknown }).level;
  } catch {
    return `${line}\n`;
  }
  return typeof level === 'number' && level >= TERMINAL_MIN_LEVEL ? formatLogLine(line, color) : null;
}
