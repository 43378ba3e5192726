/** Where use cases and adapters report what an operator should know (pino fits as it is). */
export interface Logger {
  /** Something worth knowing at start-up or in operation; optional for hosts that only want problems. */
  info?(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { warn() {}, error() {} };
