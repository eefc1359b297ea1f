/**
 * Loaded into an app with `--require` by benches that profile it (bench/load `--cpu-prof DIR`): the
 * first SIGWINCH starts V8's sampling profiler (after the bench's warm-up, so start-up is not in it),
 * the second writes DIR/<app>-<pid>.cpuprofile (open it in Chrome DevTools or summarise it with
 * bench/support/cpu-profile-summary).
 * Node's own --cpu-prof writes only on a normal exit, and Nest's shutdown hook ends the process by
 * re-raising SIGTERM, so that file would never appear. SIGWINCH because Nest's shutdown hooks take
 * SIGUSR2 and Node's inspector takes SIGUSR1.
 */
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import * as path from 'node:path';

const dir = process.env.SCOPEGRAPH_CPU_PROFILE_DIR;
/** Microseconds between samples: finer than Node's default 1 ms, since one search costs a few ms. */
const SAMPLING_INTERVAL_US = 250;

if (dir) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGWINCH', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US }, () => session.post('Profiler.start')));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (error) {
        process.stderr.write(`cpu profile: ${error.message}\n`);
        return;
      }
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${path.basename(path.dirname(path.dirname(process.argv[1] ?? 'app')))}-${process.pid}.cpuprofile`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
      fs.renameSync(`${file}.tmp`, file);
      process.stderr.write(`cpu profile written to ${file}\n`);
    });
  });
}
