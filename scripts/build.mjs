// Compiles apps/ and libs/ (and bench/) to dist/ with swc, rewriting @scopegraph/* path aliases.
// Type checking is separate: npm run typecheck.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
execFileSync(
  process.execPath,
  ['node_modules/@swc/cli/bin/swc.js', 'apps', 'libs', 'bench', 'test/fakes', '-d', 'dist', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts', '--quiet'],
  { stdio: 'inherit' },
);
