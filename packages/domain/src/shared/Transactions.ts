/**
 * Runs work as one database transaction: every store call inside `work` commits together, or none
 * does (the audit entry and the change it records, SPEC §17). In-memory stores run `work` as it is.
 */
export interface Transactions {
  run<T>(work: () => Promise<T>): Promise<T>;
}

/** `Transactions` for stores without transactions (in-memory): runs the work directly. */
export const directTransactions: Transactions = { run: (work) => work() };
