/**
 * The local server's store (--data FILE): an append-only journal with one line per committed batch.
 *
 *   VELOXA-SANDBOX-JOURNAL 1                     the header, so a wrong --data file is refused, not overwritten
 *   <sha256 hex of JSON> <JSON>                  one batch: [["key", value], ["deleted key"], ...]
 *
 * A batch is durable when commit() resolves: its line is appended and fdatasync'd first, so a response the
 * engine has sent is never lost. A kill in the middle of an append leaves a torn last line, which fails its
 * checksum (or has no line feed); load() ignores it and cuts it off, so the next append starts on a clean
 * line. A bad line with good lines after it is not a torn write but damage, and load() refuses the file.
 *
 * When the journal has grown past a threshold, and to more than twice its size after the last compaction,
 * it is compacted: every live record is written to a temporary file, which is fsync'd and renamed over the
 * journal, and the directory is fsync'd so the rename survives a power cut. A crash before the rename
 * leaves the journal untouched; the temporary file is removed on the next load.
 *
 * An import (replace) rewrites the journal the same way, with the imported records alone.
 *
 * One process writes a journal at a time: load() takes FILE.lock (holding its process ID) and close()
 * gives it back. Two sandboxes appending to one file, or one compacting it under the other, would lose
 * batches; a lock left by a process that no longer runs is taken over. The MCP server (--data) writes the
 * same journal, with its notification inbox as records of its own (src/sandbox/hosts/mcp/sandboxSession.ts).
 */
import {createHash} from 'node:crypto';
import {constants as fsConstants} from 'node:fs';
import {open, readFile, rename, rm, writeFile, type FileHandle} from 'node:fs/promises';
import path from 'node:path';
import type {RecordChange, RecordValue, SandboxStore} from '../../engine/store';

const header = 'VELOXA-SANDBOX-JOURNAL 1';
const lineFeed = 0x0a;
const checksumLength = 64;
/** Live records per line of a compacted journal: keeps lines short without making the file much longer. */
const recordsPerSnapshotLine = 500;

/** The data file cannot be used: its message is one line naming the file and the problem. */
export class JournalFileError extends Error {
  constructor(file: string, problem: string) {
    super(`data file ${file}: ${problem}`);
    this.name = 'JournalFileError';
  }
}

export interface FileStoreOptions {
  /** Journal size in bytes past which it may be compacted (default 16 MiB). */
  readonly compactAfterBytes?: number;
  /** Where a failed compaction is reported; the journal is still complete, so the store carries on. */
  readonly log?: (line: string) => void;
  /**
   * How long load() waits for another process to give the lock back before it refuses (default 0). The
   * MCP server waits a little: a client that starts one server per call may start the next while the
   * last one is still exiting.
   */
  readonly lockWaitMs?: number;
}

export interface FileStore extends SandboxStore {
  readonly file: string;
  /** Waits for the writes under way, then closes the file and gives back its lock. */
  close(): Promise<void>;
}

const checksum = (json: Buffer | string): string => createHash('sha256').update(json).digest('hex');

function journalLine(json: string): string {
  return `${checksum(json)} ${json}\n`;
}

/** The JSON of a batch line, built from record texts already serialised. */
function batchJson(entries: Iterable<readonly [string, string | undefined]>): string {
  const parts: string[] = [];
  for (const [key, text] of entries) parts.push(text === undefined ? `[${JSON.stringify(key)}]` : `[${JSON.stringify(key)},${text}]`);
  return `[${parts.join(',')}]`;
}

/** A batch line's entries, or undefined when its JSON does not have the journal's shape. */
function parseBatch(json: string): Array<[string, RecordValue | undefined]> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const entries: Array<[string, RecordValue | undefined]> = [];
  for (const entry of parsed as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || (entry.length !== 1 && entry.length !== 2)) return undefined;
    entries.push([entry[0], entry[1] as RecordValue | undefined]);
  }
  return entries;
}

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Makes a rename or a new file in `directory` durable (POSIX; Windows cannot open a directory to sync it). */
async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(directory, fsConstants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** Writes `lines` to `file` in one durable, atomic step: a temporary file, fsync, rename, fsync of the directory. */
async function replaceFile(file: string, temporary: string, lines: Iterable<string>): Promise<number> {
  const handle = await open(temporary, 'w');
  let size = 0;
  try {
    for (const line of lines) {
      const bytes = Buffer.from(line);
      await handle.writeFile(bytes);
      size += bytes.length;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  await syncDirectory(path.dirname(file));
  return size;
}

/** A store over the journal at `file`; the file is created on load() when it does not exist. */
export function fileStore(file: string, options: FileStoreOptions = {}): FileStore {
  const compactAfterBytes = options.compactAfterBytes ?? 16 * 1024 * 1024;
  const temporary = `${file}.tmp`;
  const lockFile = `${file}.lock`;
  /** The live records as their JSON texts: what a compaction writes, without touching the engine's objects. */
  const live = new Map<string, string>();
  let handle: FileHandle | undefined;
  /** Bytes of the journal up to its last complete batch: a failed append is cut back to it. */
  let size = 0;
  let compactAt = compactAfterBytes;
  /** Every write goes through this chain, so appends, compactions and clear() never interleave. */
  let queue: Promise<unknown> = Promise.resolve();

  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => undefined);
    return result;
  };

  const fail = (problem: string): never => {
    throw new JournalFileError(file, problem);
  };

  function* snapshotLines(records: ReadonlyMap<string, string>): Generator<string> {
    yield `${header}\n`;
    const entries = [...records];
    for (let start = 0; start < entries.length; start += recordsPerSnapshotLine) {
      yield journalLine(batchJson(entries.slice(start, start + recordsPerSnapshotLine)));
    }
  }

  /** Replaces the journal with `records` alone; the old journal stays as it was if this fails. */
  async function rewrite(records: ReadonlyMap<string, string>): Promise<void> {
    const written = await replaceFile(file, temporary, snapshotLines(records));
    // The open handle still points at the replaced file: appends go to the new one from here.
    await handle?.close();
    handle = await open(file, 'a');
    size = written;
    compactAt = Math.max(compactAfterBytes, 2 * size);
  }

  async function compact(): Promise<void> {
    // Several commits may have queued a compaction before the first of them ran.
    if (size <= compactAt) return;
    try {
      await rewrite(live);
    } catch (error) {
      await rm(temporary, {force: true}).catch(() => undefined);
      compactAt = 2 * size;
      options.log?.(`sandbox: could not compact ${file} (${(error as Error).message}); the journal keeps growing`);
    }
  }

  /** Reads the journal into `live`; returns the length of its valid part. */
  function replay(bytes: Buffer): number {
    const headerEnd = bytes.indexOf(lineFeed);
    if (headerEnd === -1 || bytes.subarray(0, headerEnd).toString('utf8') !== header) {
      fail(`not a sandbox journal (its first line is not "${header}"); pass --data a sandbox journal, or a file that does not exist yet`);
    }
    let offset = headerEnd + 1;
    for (let lineNo = 2; offset < bytes.length; lineNo += 1) {
      const end = bytes.indexOf(lineFeed, offset);
      const line = bytes.subarray(offset, end === -1 ? bytes.length : end);
      const json = line.subarray(checksumLength + 1);
      const intact = end !== -1 && line[checksumLength] === 0x20 && line.subarray(0, checksumLength).toString('latin1') === checksum(json);
      const batch = intact ? parseBatch(json.toString('utf8')) : undefined;
      if (!batch) {
        // Only line feeds or zeros after it (some file systems zero-fill a tail cut short by a crash): a torn last append.
        const last = end === -1 || bytes.subarray(end + 1).every((byte) => byte === lineFeed || byte === 0);
        if (!last)
          fail(`line ${lineNo} is damaged (${intact ? 'not a batch of records' : 'its checksum does not match'}) and more lines follow it`);
        return offset;
      }
      for (const [key, value] of batch) {
        if (value === undefined) live.delete(key);
        else live.set(key, JSON.stringify(value));
      }
      offset = end + 1;
    }
    return offset;
  }

  async function lock(): Promise<void> {
    const giveUpAt = Date.now() + (options.lockWaitMs ?? 0);
    for (;;) {
      try {
        await writeFile(lockFile, String(process.pid), {flag: 'wx'});
        return;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') fail(`cannot be locked (${(error as Error).message})`);
      }
      const holder = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processRuns(holder)) {
        if (Date.now() < giveUpAt) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        fail(`is in use by another sandbox (process ${holder}); stop it, or delete ${lockFile} if none is running`);
      }
      await rm(lockFile, {force: true});
    }
  }

  async function readJournal(): Promise<Buffer | undefined> {
    try {
      return await readFile(file);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      return fail(errorCode(error) === 'EISDIR' ? 'is a directory' : `cannot be read (${(error as Error).message})`);
    }
  }

  /** Loads the journal (creating it when there is none) and opens it for appending. The engine loads again after a reset. */
  async function openJournal(): Promise<Array<readonly [string, RecordValue]>> {
    await handle?.close();
    handle = undefined;
    await rm(temporary, {force: true}).catch(() => undefined);
    live.clear();
    const bytes = await readJournal();
    const valid = bytes && bytes.length > 0 ? replay(bytes) : 0;
    try {
      if (valid === 0) {
        await rewrite(live);
      } else {
        handle = await open(file, 'a');
        size = valid;
        // The torn tail is cut off, so the next batch starts on a line of its own.
        if (valid < (bytes?.length ?? 0)) {
          await handle.truncate(valid);
          await handle.sync();
        }
      }
    } catch (error) {
      fail(`cannot be written (${(error as Error).message})`);
    }
    if (size > compactAt) await compact();
    return [...live].map(([key, text]) => [key, JSON.parse(text) as RecordValue] as const);
  }

  return {
    file,

    load: () =>
      enqueue(async () => {
        await lock();
        try {
          return await openJournal();
        } catch (error) {
          await handle?.close();
          handle = undefined;
          await rm(lockFile, {force: true});
          throw error;
        }
      }),

    commit: (changes: readonly RecordChange[]) =>
      enqueue(async () => {
        if (!handle) throw new Error(`fileStore(${file}): not open (commit before load, or after close)`);
        if (changes.length === 0) return;
        const texts = changes.map((change) => [change.key, change.value === undefined ? undefined : JSON.stringify(change.value)] as const);
        const bytes = Buffer.from(journalLine(batchJson(texts)));
        try {
          await handle.writeFile(bytes);
          await handle.datasync();
        } catch (error) {
          // Cut off whatever part of the line reached the file, so the next batch starts on a clean line.
          await handle.truncate(size).catch(() => undefined);
          throw error;
        }
        size += bytes.length;
        for (const [key, text] of texts) {
          if (text === undefined) live.delete(key);
          else live.set(key, text);
        }
        // Queued, not awaited: this batch is durable already, and its caller need not wait for the rewrite.
        if (size > compactAt) void enqueue(compact);
      }),

    clear: () =>
      enqueue(async () => {
        await rewrite(new Map());
        live.clear();
      }),

    replace: (records: ReadonlyArray<readonly [string, RecordValue]>) =>
      enqueue(async () => {
        // One rename: a crash leaves the old journal or the new one, never an empty one in between.
        const next = new Map(records.map(([key, value]) => [key, JSON.stringify(value)] as const));
        await rewrite(next);
        live.clear();
        for (const [key, text] of next) live.set(key, text);
      }),

    close: () =>
      enqueue(async () => {
        if (!handle) return;
        await handle.close();
        handle = undefined;
        await rm(lockFile, {force: true});
      }),
  };
}
