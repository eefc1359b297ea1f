import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A real git repository in a folder, committed to with the git CLI at fixed times and authors. */
export class GitRepo {
  private clock = Date.UTC(2024, 0, 1) / 1000;

  constructor(readonly dir: string) {
    this.git('init', '-q', '-b', 'main');
  }

  git(...args: string[]): string {
    return execFileSync('git', ['-C', this.dir, ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: this.dir, GIT_AUTHOR_NAME: this.author, GIT_AUTHOR_EMAIL: `${this.author.toLowerCase()}@example.org`, GIT_COMMITTER_NAME: 'ci', GIT_COMMITTER_EMAIL: 'ci@example.org' },
    });
  }

  author = 'Ann';

  write(files: Record<string, string>): void {
    for (const [p, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(this.dir, p)), { recursive: true });
      fs.writeFileSync(path.join(this.dir, p), text);
    }
  }

  /** Writes the files and commits everything, a day after the previous commit; returns the sha. */
  commit(message: string, files: Record<string, string>, author = 'Ann'): string {
    this.write(files);
    this.author = author;
    this.clock += 86_400;
    const date = `@${this.clock} +0000`;
    this.git('add', '-A');
    execFileSync('git', ['-C', this.dir, 'commit', '-q', '-m', message], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: this.dir, GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: `${author.toLowerCase()}@example.org`, GIT_COMMITTER_NAME: 'ci', GIT_COMMITTER_EMAIL: 'ci@example.org', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return this.git('rev-parse', 'HEAD').trim();
  }
}
