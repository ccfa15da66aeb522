/**
 * `npm test`: every check, stopping at the first that fails, then the time each step took (CI prints it
 * too, through .ci/run). The checks start first, and all of them end before the build does, so a mistake fails early.
 *
 * Steps that do not depend on each other run side by side, two at a time on two cores (TEST_JOBS=<n>
 * changes it; TEST_JOBS=1 runs them one by one, in the order below): most of them are single-threaded
 * (tsc, ESLint, the build's bundler, html-validate) or wait on servers and child processes, so one step
 * alone leaves a core idle. Each step's output is held back and printed whole when the step ends, so the
 * log reads step by step. The first failure stops the run: the steps still running are ended, and the
 * failed step's output is printed last. The end-to-end suite runs alone, after everything else: it is
 * the heaviest step, and the one whose timing a busy machine would disturb.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {readFileSync, rmSync} from 'node:fs';
import {availableParallelism, tmpdir} from 'node:os';
import path from 'node:path';

interface Step {
  /** The npm script. */
  readonly name: string;
  /** Scripts that must have passed first: they write what this one reads. */
  readonly after?: readonly string[];
  /** Runs with no other step beside it. */
  readonly alone?: boolean;
  /** Waits on the network and the disk, not the processor: runs beside the others without taking a slot. */
  readonly background?: boolean;
}

/**
 * npm scripts, in the order they start when a slot is free. The test build goes right after the type-check: it
 * heads the longest chain (the HTML check, the clients, MCP and the end-to-end suite wait for it), so starting
 * it 12 s earlier, before the two checks of seconds, ends the steps before the end-to-end suite earlier; the
 * steps that wait for it start longest first, so the two slots end close together.
 */
const steps: readonly Step[] = [
  // On a fresh machine, one apt-get run for every Debian package the tests use (about 100 s on CI), overlapping
  // the checks instead of interrupting the sample, sandbox and end-to-end steps one install at a time.
  {name: 'provision', background: true},
  {name: 'typecheck'},
  {name: 'lint'},
  {name: 'build:test'},
  {name: 'check:deps'},
  {name: 'lint:contract'},
  {name: 'test:unit'},
  {name: 'test:sandbox', after: ['provision']},
  {name: 'test:samples', after: ['provision']},
  {name: 'check:html', after: ['build:test']},
  // Reads build-test/; writes tests/clients/typescript/generated, which tsc, ESLint and knip must not see half-written.
  {name: 'test:clients', after: ['build:test', 'typecheck', 'lint', 'check:deps']},
  {name: 'test:mcp', after: ['build:test']},
  {name: 'test:e2e', after: ['build:test', 'provision'], alone: true},
];

const jobs = Math.max(1, Number(process.env['TEST_JOBS'] ?? Math.min(2, availableParallelism())) || 1);

interface Result {
  readonly step: string;
  readonly seconds: number;
  /** Processor time of the step and everything it started (user and system), when the shell could tell it. */
  readonly cpuSeconds: number | undefined;
  readonly status: 'passed' | 'failed' | 'stopped';
}

const format = (seconds: number) => `${Math.floor(seconds / 60)}m ${(seconds % 60).toFixed(0).padStart(2, '0')}s`;
const started = Date.now();
const elapsed = () => format((Date.now() - started) / 1000);

const results: Result[] = [];
const running = new Map<string, {child: ChildProcess; stopped: boolean}>();
const waiting = [...steps];
let failed: string | undefined;
const failures: Array<() => void> = [];

function printOutput(step: string, output: readonly Buffer[], note: string): void {
  process.stdout.write(`\n=== npm run ${step} (${note})\n`);
  process.stdout.write(Buffer.concat(output));
}

/** Runs one step in its own process group (so ending it ends everything it started), collecting its output. */
function run(step: Step): Promise<void> {
  return new Promise((resolve) => {
    const stepStarted = Date.now();
    const output: Buffer[] = [];
    // bash's `times` reports the processor time of the step's whole process tree: the suite is bound by the
    // processor on two cores, so that figure, not the wall time, says which step to make cheaper.
    const timesFile = path.join(tmpdir(), `npm-test-${process.pid}-${step.name.replace(/\W/g, '-')}.times`);
    const child = spawn('bash', ['-c', `npm run --silent "$0"; status=$?; times > "$1"; exit $status`, step.name, timesFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const entry = {child, stopped: false};
    running.set(step.name, entry);
    console.log(`[${elapsed()}] started  npm run ${step.name}`);
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${String(error)}\n`)));
    child.on('close', (code, signal) => {
      running.delete(step.name);
      const seconds = (Date.now() - stepStarted) / 1000;
      const status = entry.stopped ? 'stopped' : code === 0 && signal === null ? 'passed' : 'failed';
      results.push({step: step.name, seconds, cpuSeconds: childrenCpuSeconds(timesFile), status});
      if (status === 'failed' && failed === undefined) {
        failed = step.name;
        stopAll();
      }
      if (status === 'passed') printOutput(step.name, output, `passed in ${format(seconds)}`);
      else if (status === 'stopped') console.log(`\n=== npm run ${step.name} (stopped after ${format(seconds)}: another step failed)`);
      // A failure's output comes last, below the lines of the steps it stopped.
      else failures.push(() => printOutput(step.name, output, `FAILED after ${format(seconds)}`));
      resolve();
    });
  });
}

/** The children's user and system time from bash's `times` output (its second line: "0m12.345s 0m1.234s"). */
function childrenCpuSeconds(file: string): number | undefined {
  try {
    const line = readFileSync(file, 'utf8').split('\n')[1] ?? '';
    const times = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]));
    return times.length === 2 ? (times[0] ?? 0) + (times[1] ?? 0) : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(file, {force: true});
  }
}

function stopAll(): void {
  for (const [name, entry] of running) {
    // An install is left to finish: apt-get ended in the middle of dpkg leaves the machine needing `dpkg --configure -a`.
    if (steps.find((step) => step.name === name)?.background) continue;
    entry.stopped = true;
    try {
      process.kill(-(entry.child.pid ?? 0), 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

const passed = (name: string) => results.some((result) => result.step === name && result.status === 'passed');

/** The first waiting step whose prerequisites have passed and that may start beside what runs now. */
function nextStep(): Step | undefined {
  const stepNamed = (name: string) => steps.find((step) => step.name === name);
  const inSlots = [...running.keys()].filter((name) => !stepNamed(name)?.background);
  const alone = inSlots.some((name) => stepNamed(name)?.alone);
  for (const step of waiting) {
    if (!(step.after ?? []).every(passed)) continue;
    if (step.background) return step;
    if (alone || inSlots.length >= jobs) continue;
    // A step that runs alone waits for every other step, and for all that comes before it in the list.
    if (step.alone && (running.size > 0 || waiting[0] !== step)) continue;
    return step;
  }
  return undefined;
}

/** Starts every step that may start, again each time one ends, until none runs. */
function runAll(): Promise<void> {
  return new Promise((done) => {
    const schedule = () => {
      if (failed === undefined) {
        for (let step = nextStep(); step; step = nextStep()) {
          waiting.splice(waiting.indexOf(step), 1);
          void run(step).then(schedule);
        }
      }
      if (running.size === 0) done();
    };
    schedule();
  });
}

function report(): void {
  for (const print of failures) print();
  console.log(`\nTime per step (${jobs} at a time), and processor time (user and system, all its processes):`);
  let cpuTotal = 0;
  for (const {step, seconds, cpuSeconds, status} of [...results].sort(
    (a, b) => steps.findIndex((s) => s.name === a.step) - steps.findIndex((s) => s.name === b.step),
  )) {
    cpuTotal += cpuSeconds ?? 0;
    const cpu = cpuSeconds === undefined ? '' : `${format(cpuSeconds).padStart(8)} cpu`;
    console.log(`  ${step.padEnd(14)} ${format(seconds).padStart(8)} ${cpu}${status === 'passed' ? '' : `  ${status.toUpperCase()}`}`);
  }
  for (const {name} of waiting) console.log(`  ${name.padEnd(14)} ${'-'.padStart(8)}  NOT RUN`);
  console.log(`  ${'total'.padEnd(14)} ${elapsed().padStart(8)} ${format(cpuTotal).padStart(8)} cpu`);
  if (failed) {
    console.error(`\nnpm test stopped: "npm run ${failed}" failed.`);
    process.exit(1);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (stopAll(), process.exit(1)));
void runAll().then(report);
