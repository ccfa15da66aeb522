/**
 * RSA signing of the sandbox server on a small pool of worker threads (issue 33, point 7), installed as the
 * signing module's backend (lib/signing.ts installSigningBackend), so the engine and every other caller in the
 * process use it unchanged; the in-browser engine keeps WebCrypto. Verifying, a tenth of signing's cost, stays
 * on the calling thread: a round trip to a thread costs more.
 *
 * Node's WebCrypto already signs off the main thread, on libuv's pool of four threads shared with file and DNS
 * work, in arrival order; on the 2-core machine it was as fast as this pool or faster (bench/sandbox.md). What
 * this pool adds is a second queue: a job started under atLowPriority() (the signed 429 a flooding merchant
 * gets, shedding.ts) only runs when no other job waits, so a flood cannot delay another merchant's answers.
 * So the server starts it in hosted mode by default (cli.ts --signing-threads).
 *
 * Each key crosses to a thread once, as a KeyObject (which postMessage copies), and is then named by number.
 * The worker's code is a string evaluated in the thread, so it works from the repository (tsx) and from the
 * bundled download alike, where no separate worker file exists.
 */
import {AsyncLocalStorage} from 'node:async_hooks';
import {KeyObject, verify} from 'node:crypto';
import {Worker} from 'node:worker_threads';
import type {SigningBackend} from '../../../lib/signing';

const workerSource = `
const {parentPort} = require('node:worker_threads');
const {sign} = require('node:crypto');
const keys = new Map();
parentPort.on('message', ({id, keyId, key, data}) => {
  if (key) keys.set(keyId, key);
  try {
    parentPort.postMessage({id, result: sign('sha256', data, keys.get(keyId))});
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
  readonly key: CryptoKey;
  readonly data: Uint8Array;
  resolve(value: Uint8Array): void;
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

/**
 * Jobs handed to a thread before it has finished the first: it takes the next from its own message queue, so
 * it never waits for a busy main thread to send one. Low-priority jobs wait behind at most these.
 */
const perThread = 8;

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
    thread.worker.on('message', ({id, result, error}: {id: number; result?: Uint8Array; error?: string}) => {
      const job = thread.running.get(id);
      thread.running.delete(id);
      if (job && error !== undefined) job.reject(new Error(`signing thread: ${error}`));
      else if (job) job.resolve(result as Uint8Array);
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
    thread.worker.postMessage({id, keyId, key, data: job.data});
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

  function submit(job: Omit<Job, 'resolve' | 'reject'>): Promise<Uint8Array> {
    if (closed) return Promise.reject(new Error('the signing pool is closed'));
    return new Promise<Uint8Array>((resolve, reject) => {
      (priority.getStore() === 'low' ? queues.low : queues.normal).push({...job, resolve, reject});
      dispatch();
    });
  }

  return {
    threads,
    sign: (data, key) => submit({key, data}),
    // Verifying (public exponent 65537) takes a tenth of signing, less than a round trip to a thread: done here.
    verify: async (data, signature, key) => {
      let keyObject = keyObjects.get(key);
      if (!keyObject) keyObjects.set(key, (keyObject = KeyObject.from(key)));
      return verify('sha256', data, keyObject, signature);
    },
    async close() {
      closed = true;
      for (const job of [...queues.normal, ...queues.low]) job.reject(new Error('the signing pool is closed'));
      await Promise.all(pool.map((thread) => thread.worker.terminate()));
    },
  };
}
