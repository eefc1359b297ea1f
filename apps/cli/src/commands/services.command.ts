import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';

export function servicesCommand(action: 'up' | 'down' | 'status'): number {
  const script = path.join(projectRoot(), 'scripts', 'services.sh');
  return spawnSync('bash', [script, action], { stdio: 'inherit' }).status ?? 1;
}
