/** Creates new identifiers (UUIDs; v7 in production, so ids are time-ordered). */
export interface IdGenerator {
  next(): string;
}
