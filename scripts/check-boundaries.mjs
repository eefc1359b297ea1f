// Checks the module boundaries in .dependency-cruiser.cjs (apps -> libs only, libs never import apps,
// listed lib -> lib edges only, no cycles in libs). Through dependency-cruiser's API rather than its
// CLI: the CLI refuses Node 20 by a version check, the API runs on it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const require = createRequire(import.meta.url);
const config = require(path.join(root, '.dependency-cruiser.cjs'));
const tsConfig = extractTSConfig(path.join(root, 'tsconfig.json'));

const result = await cruise(
  ['apps', 'libs'],
  { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden }, outputType: 'err-long' },
  undefined,
  { tsConfig },
);
process.stdout.write(result.output);
process.exit(result.exitCode === 0 ? 0 : 1);
