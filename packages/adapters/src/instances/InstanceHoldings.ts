/**
 * What an instance holds in the shared storage for its sessions besides the sessions themselves
 * (its accounts' slots, the contexts its sessions save to): let go of when the instance is declared
 * lost, and when it starts again (its browsers died with its previous run).
 */
export interface InstanceHoldings {
  /** What is held, for the log line (`sessionShares`, `contexts`). */
  readonly what: string;
  /** Lets go of everything `instanceId` holds; how many were let go. */
  letGoOfInstance(instanceId: string): Promise<number>;
}
