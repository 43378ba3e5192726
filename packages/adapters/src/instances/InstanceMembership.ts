import type { EndLostInstanceSessions } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { InstanceClient } from './InstanceClient.ts';
import type { InstanceDirectory } from './InstanceDirectory.ts';
import type { InstanceHoldings } from './InstanceHoldings.ts';
import type { InstanceRecord, InstanceRegistry } from './InstanceRegistry.ts';

/** Lost instances handled per sweep. */
const SWEEP_BATCH = 10;

/** Thrown when another running process already is this instance (a shared data folder or id). */
export class InstanceIdInUseError extends Error {}

/**
 * This instance's place among the instances sharing the database. `join` (before serving anything)
 * refuses to start when another running process answers as this instance (one `LOCAL_INSTANCE_ID`
 * given to two), registers it with a new boot id, and ends the sessions a
 * previous run of it left active (its browsers died with that process: `ERROR`). Then, every
 * `heartbeatMs`, it beats and sweeps: an instance silent for `lostAfterMs` that does not answer at
 * its URL either (as the same boot) is lost; its active sessions are ended `ERROR` and its row removed.
 * Either way, what the instance held for its sessions (`holdings`: its accounts' slots, the contexts
 * its sessions saved to) is let go of with its sessions.
 */
export class InstanceMembership {
  private readonly deps: {
    registry: InstanceRegistry;
    directory: InstanceDirectory;
    client: InstanceClient;
    endLostInstance: Pick<EndLostInstanceSessions, 'execute'>;
    logger: Logger;
    url: string;
    bootId: string;
    heartbeatMs: number;
    /** What instances hold for their sessions in the shared storage (absent: nothing). */
    holdings?: readonly InstanceHoldings[] | undefined;
  };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(deps: InstanceMembership['deps']) {
    this.deps = deps;
  }

  get instanceId(): string {
    return this.deps.directory.instanceId;
  }

  async join(now = new Date()): Promise<void> {
    const { registry, client, url, bootId } = this.deps;
    const previous = await registry.find(this.instanceId);
    if (previous && previous.bootId !== bootId) {
      const answer = await client.ping(previous);
      if (answer && answer.id === previous.id && answer.bootId === previous.bootId) {
        throw new InstanceIdInUseError(
          `Another running process is already instance ${this.instanceId} (answering at ${previous.url}): ` +
            'give each process its own LOCAL_INSTANCE_ID, or leave it unset (processes sharing a DATA_DIR ' +
            'then each take an id of their own).',
        );
      }
    }
    await registry.register({ id: this.instanceId, url, bootId, startedAt: now, seenAt: now });
    const ended = await this.deps.endLostInstance.execute({ instanceId: this.instanceId });
    // Its previous run's browsers died with it: so did what they held.
    const freed = await this.letGo(this.instanceId);
    this.deps.logger.info(
      { instanceId: this.instanceId, url, endedOwnSessions: ended, freed },
      ended > 0
        ? 'instance joined; sessions its previous run left active were ended ERROR'
        : 'instance joined',
    );
  }

  /** Starts the heartbeat and the sweep. Idempotent. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running ??= this.beat().finally(() => {
        this.running = undefined;
      });
    }, this.deps.heartbeatMs);
    this.timer.unref();
  }

  /** Stops beating (a pass in progress finishes) and removes this instance's row. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.deps.registry
      .remove(this.instanceId, this.deps.bootId)
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'could not unregister this instance'));
  }

  /** One heartbeat and one sweep. */
  async beat(now = new Date()): Promise<void> {
    const { registry, bootId, logger } = this.deps;
    try {
      if (!(await registry.heartbeat(this.instanceId, bootId, now))) {
        logger.error(
          { instanceId: this.instanceId },
          'another process has registered as this instance since it started: two processes share one instance id',
        );
      }
      const silent = await registry.listSilentSince(
        new Date(now.getTime() - this.deps.directory.lostAfterMs),
        SWEEP_BATCH,
      );
      for (const record of silent) {
        if (record.id !== this.instanceId) await this.sweep(record);
      }
    } catch (error) {
      logger.warn({ err: error }, 'instance heartbeat or sweep failed; trying again');
    }
  }

  private async sweep(record: InstanceRecord): Promise<void> {
    const answer = await this.deps.client.ping(record);
    if (answer && answer.id === record.id && answer.bootId === record.bootId) return;
    const ended = await this.deps.endLostInstance.execute({ instanceId: record.id });
    const freed = await this.letGo(record.id);
    await this.deps.registry.remove(record.id, record.bootId);
    this.deps.logger.warn(
      {
        ...{ lostInstanceId: record.id, lastSeenAt: record.seenAt.toISOString() },
        ...{ endedSessions: ended, freed },
      },
      'an instance stopped answering; its sessions were ended ERROR',
    );
  }

  /** Lets go of what `instanceId` held, every kind; how many of each. */
  private async letGo(instanceId: string): Promise<Record<string, number>> {
    const freed: Record<string, number> = {};
    for (const holding of this.deps.holdings ?? [])
      freed[holding.what] = await holding.letGoOfInstance(instanceId);
    return freed;
  }
}
