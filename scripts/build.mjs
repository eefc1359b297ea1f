// Compiles apps/, libs/, bench/ and the test fakes to dist/ with swc, rewriting @scopegraph/* path
// aliases to relative requires, then builds the web console (apps/web) with Vite into dist/web.
// Type checking is separate: npm run typecheck. The build fails when apps/web's generated GraphQL
// types no longer match the API's schema (scripts/codegen.mjs --check).
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

const sources = ['apps', 'libs', 'bench', 'test/fakes', 'test/support'].filter((d) => existsSync(d));
rmSync('dist', { recursive: true, force: true });
execFileSync(
  process.execPath,
  ['node_modules/@swc/cli/bin/swc.js', ...sources, '-d', 'dist', '--config-file', '.swcrc', '--ignore', '**/*.spec.ts,apps/web/**', '--quiet'],
  { stdio: 'inherit' },
);

try {
  execFileSync(process.execPath, ['scripts/codegen.mjs', '--check', '--dist', 'dist'], { stdio: 'inherit' });
} catch {
  process.exit(1); // codegen.mjs has said what differs
}

const { build } = await import('vite');
await build({ configFile: 'apps/web/vite.config.mts', logLevel: 'warn' });
