import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';

/** The most processes that may share one data folder. */
const MAX_SLOTS = 64;

/** A slot of the data folder held by this process until it exits (or `release`). */
export interface FolderSlot {
  /** 1 for the first process on the folder, 2 for a second one running beside it, … */
  readonly slot: number;
  release(): Promise<void>;
}

/**
 * Takes the lowest free slot of `dataDir` among the processes on this host sharing it, atomically:
 * slot N is held by listening on the abstract Unix socket `browserdeck-instance-<folder>-N` (Linux),
 * which only one process can bind and which the kernel frees when that process ends, SIGKILL
 * included. So processes started together on one folder get different slots, and a process that
 * restarts while the others run gets its own slot back. Where abstract sockets do not exist (not
 * Linux), every process gets slot 1 (the registry's check still refuses a second live one).
 */
export async function claimFolderSlot(dataDir: string): Promise<FolderSlot> {
  if (process.platform !== 'linux') return { slot: 1, release: async () => {} };
  const folder = createHash('sha256')
    .update(await realpath(dataDir))
    .digest('hex')
    .slice(0, 24);
  for (let slot = 1; slot <= MAX_SLOTS; slot++) {
    const server = await listen(`\0browserdeck-instance-${folder}-${slot}`);
    if (server) {
      server.unref();
      return { slot, release: () => new Promise((done) => server.close(() => done())) };
    }
  }
  throw new Error(`More than ${MAX_SLOTS} processes share the data folder ${dataDir}.`);
}

/** A server listening at `path`, or null when another process holds it. */
function listen(path: string): Promise<Server | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(null) : reject(error),
    );
    server.listen(path, () => resolve(server));
  });
}
