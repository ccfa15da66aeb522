/**
 * RSA signing and verifying of the sandbox server on a small pool of worker threads (issue 33, point 7),
 * installed as the signing module's backend (lib/signing.ts installSigningBackend), so the engine and every
 * other caller in the process use it unchanged; the in-browser engine keeps WebCrypto.
 *
 * Why a pool of our own when Node's WebCrypto already runs on libuv's thread pool: that pool is shared with
 * file and DNS work, has four threads whatever the cores, and runs jobs in arrival order. This one has a
 * thread per core, and two queues: a job started under atLowPriority() (the signed 429 a flooding merchant
 * gets, shedding.ts) only runs when no other job waits, so a flood cannot delay another merchant's answers.
 *
 * Each key crosses to a thread once, as a KeyObject (which postMessage copies), and is then named by number.
 * The worker's code is a string evaluated in the thread, so it works from the repository (tsx) and from the
 * bundled download alike, where no separate worker file exists.
 */
import {AsyncLocalStorage} from 'node:async_hooks';
import {KeyObject} from 'node:crypto';
import {Worker} from 'node:worker_threads';
import type {SigningBackend} from '../../../lib/signing';

const workerSource = `
const {parentPort} = require('node:worker_threads');
const {sign, verify} = require('node:crypto');
const keys = new Map();
parentPort.on('message', ({id, op, keyId, key, data, signature}) => {
  if (key) keys.set(keyId, key);
  try {
    const known = keys.get(keyId);
    const result = op === 'sign' ? sign('sha256', data, known) : verify('sha256', data, known, signature);
    parentPort.postMessage({id, result});
  } catch (error) {
    parentPort.postMessage({id, error: String((error && error.message) || error)});
  }
});
`;

const priority = new AsyncLocalStorage<'low'>();

/** Runs `work` so that the signatures it asks the pool for wait behind every other caller's. */
export function atLowPriority<T>(work: () => Promise<T>): Promise<T> {
  return priority.run('low', work);
}

interface Job {
  readonly op: 'sign' | 'verify';
  readonly key: CryptoKey;
  readonly data: Uint8Array;
  readonly signature?: Uint8Array;
  resolve(value: Uint8Array | boolean): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  readonly keysSent: Set<number>;
  readonly running: Map<number, Job>;
}

export interface SigningPool extends SigningBackend {
  readonly threads: number;
  /** Ends the threads; jobs still queued are refused. */
  close(): Promise<void>;
}

/** A job per thread in flight, and one more queued in it, so a thread never waits for the main thread's next message. */
const perThread = 2;

export function startSigningPool(threads: number): SigningPool {
  const keyIds = new WeakMap<CryptoKey, number>();
  const keyObjects = new WeakMap<CryptoKey, KeyObject>();
  let nextKeyId = 1;
  let nextJobId = 1;
  const queues = {normal: [] as Job[], low: [] as Job[]};
  let closed = false;

  function spawnThread(): Thread {
    const thread: Thread = {worker: new Worker(workerSource, {eval: true}), keysSent: new Set(), running: new Map()};
    thread.worker.unref();
    thread.worker.on('message', ({id, result, error}: {id: number; result?: Uint8Array | boolean; error?: string}) => {
      const job = thread.running.get(id);
      thread.running.delete(id);
      if (job && error !== undefined) job.reject(new Error(`signing thread: ${error}`));
      else if (job) job.resolve(result as Uint8Array | boolean);
      dispatch();
    });
    // A thread that dies takes its jobs with it: they fail (the engine answers unsigned or refuses), and a new thread takes its place.
    thread.worker.on('error', (error) => {
      for (const job of thread.running.values()) job.reject(error);
      thread.running.clear();
    });
    thread.worker.on('exit', () => {
      const index = pool.indexOf(thread);
      if (index !== -1 && !closed) pool[index] = spawnThread();
      dispatch();
    });
    return thread;
  }
  const pool: Thread[] = Array.from({length: threads}, spawnThread);

  function send(thread: Thread, job: Job): void {
    let keyId = keyIds.get(job.key);
    if (keyId === undefined) {
      keyId = nextKeyId++;
      keyIds.set(job.key, keyId);
      keyObjects.set(job.key, KeyObject.from(job.key));
    }
    const id = nextJobId++;
    thread.running.set(id, job);
    const key = thread.keysSent.has(keyId) ? undefined : keyObjects.get(job.key);
    thread.keysSent.add(keyId);
    thread.worker.postMessage({id, op: job.op, keyId, key, data: job.data, signature: job.signature});
  }

  function dispatch(): void {
    for (const thread of pool) {
      while (thread.running.size < perThread && queues.normal.length > 0) send(thread, queues.normal.shift() as Job);
    }
    // Low-priority work only on a thread with nothing else to do.
    for (const thread of pool) {
      if (thread.running.size === 0 && queues.normal.length === 0 && queues.low.length > 0) send(thread, queues.low.shift() as Job);
    }
  }

  function submit<T extends Uint8Array | boolean>(job: Omit<Job, 'resolve' | 'reject'>): Promise<T> {
    if (closed) return Promise.reject(new Error('the signing pool is closed'));
    return new Promise<T>((resolve, reject) => {
      (priority.getStore() === 'low' ? queues.low : queues.normal).push({...job, resolve: resolve as Job['resolve'], reject});
      dispatch();
    });
  }

  return {
    threads,
    sign: (data, key) => submit<Uint8Array>({op: 'sign', key, data}),
    verify: (data, signature, key) => submit<boolean>({op: 'verify', key, data, signature}),
    async close() {
      closed = true;
      for (const job of [...queues.normal, ...queues.low]) job.reject(new Error('the signing pool is closed'));
      await Promise.all(pool.map((thread) => thread.worker.terminate()));
    },
  };
}
