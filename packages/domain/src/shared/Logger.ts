/** Where use cases report what they could not do but did not fail for (best-effort work). */
export interface Logger {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { warn() {}, error() {} };
