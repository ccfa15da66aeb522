import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {availableParallelism} from 'node:os';
import {machineBusySeconds, withCpu} from '../../tooling/bench/windowCpu';

/** Keeps this thread busy for `ms` of wall time. */
function spin(ms: number): Promise<number> {
  const end = performance.now() + ms;
  let turns = 0;
  while (performance.now() < end) turns += 1;
  return Promise.resolve(turns);
}

const linux = process.platform === 'linux';

describe('the bench window processor time (tooling/bench/windowCpu.ts)', {skip: !linux && 'reads /proc/stat'}, () => {
  test('the machine busy time is seconds of processor time and only grows', async () => {
    const before = machineBusySeconds();
    await spin(50);
    const after = machineBusySeconds();
    assert.ok(before !== undefined && after !== undefined);
    assert.ok(after >= before, `${after} >= ${before}`);
    // Seconds summed over the cores since boot, not clock ticks: a machine up for a year at full load on 512 cores stays under this.
    assert.ok(before < 365 * 24 * 3600 * 512, `${before}`);
  });

  test('a window that keeps this process busy counts it as the load generator, in cores', async () => {
    const {result, cpu} = await withCpu(
      () => spin(300),
      () => 10,
    );
    assert.ok(result > 0);
    assert.ok(cpu, 'read on Linux');
    // One busy thread: about one core (less when the machine is shared, a little more with the collector's threads), not a
    // count of process.cpuUsage's microseconds or of clock ticks.
    assert.ok(cpu.generatorCores > 0.2 && cpu.generatorCores < availableParallelism() + 0.1, `generator ${cpu.generatorCores} cores`);
    // The machine's busy time includes this process (give or take a 10 ms tick over 300 ms).
    assert.ok(cpu.busyCores >= cpu.generatorCores - 0.15, `busy ${cpu.busyCores} against generator ${cpu.generatorCores}`);
    assert.ok(cpu.msPerAnswer >= 0);
  });

  test('a window with no answers still gives a finite cost per answer', async () => {
    const {cpu} = await withCpu(
      () => new Promise<void>((resolve) => setTimeout(resolve, 100)),
      () => 0,
    );
    assert.ok(cpu);
    assert.ok(cpu.generatorCores >= 0 && cpu.busyCores >= 0);
    // The busy time of the window (other processes, other tests) over one answer, in ms: never negative or infinite.
    assert.ok(Number.isFinite(cpu.msPerAnswer) && cpu.msPerAnswer >= 0, `${cpu.msPerAnswer}`);
  });
});
