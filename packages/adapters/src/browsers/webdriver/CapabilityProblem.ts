/** A requested capability the session cannot honour: what (its name, often with the value) and why. */
export interface CapabilityProblem {
  readonly capability: string;
  readonly why: string;
  /** The value is malformed (W3C `invalid argument`), rather than one this session does not have. */
  readonly invalid?: boolean;
}
