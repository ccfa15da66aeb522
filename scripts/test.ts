/**
 * `npm test`: every check, in order, stopping at the first that fails, then the
 * time each step took (CI prints it too, through .ci/run). Cheap checks come
 * first so a mistake fails in seconds, not after the build.
 */
import {spawnSync} from 'node:child_process';

/** npm scripts, in the order they run. */
const steps = ['typecheck', 'lint', 'check:deps', 'lint:contract', 'test:unit', 'test:sandbox', 'test:samples', 'build:test', 'test:clients', 'test:mcp', 'check:html', 'test:e2e'];

const timings: Array<{step: string; seconds: number; ok: boolean}> = [];
const started = Date.now();
let failed: string | undefined;
for (const step of steps) {
  console.log(`\n=== npm run ${step}`);
  const stepStarted = Date.now();
  const result = spawnSync('npm', ['run', '--silent', step], {stdio: 'inherit'});
  const ok = result.status === 0;
  timings.push({step, seconds: (Date.now() - stepStarted) / 1000, ok});
  if (!ok) {
    failed = step;
    break;
  }
}

const format = (seconds: number) => `${Math.floor(seconds / 60)}m ${(seconds % 60).toFixed(0).padStart(2, '0')}s`;
console.log('\nTime per step:');
for (const {step, seconds, ok} of timings) console.log(`  ${step.padEnd(14)} ${format(seconds).padStart(8)}${ok ? '' : '  FAILED'}`);
console.log(`  ${'total'.padEnd(14)} ${format((Date.now() - started) / 1000).padStart(8)}`);
if (failed) {
  console.error(`\nnpm test stopped: "npm run ${failed}" failed.`);
  process.exit(1);
}
