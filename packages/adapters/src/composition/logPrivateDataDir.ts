import type { Logger } from 'pino';
import type { PrivateDirReport } from '../shared/securePrivateDir.ts';

/** One line when the data folder had looser modes (narrowed now) or some could not be narrowed. */
export function logPrivateDataDir(logger: Logger, report: PrivateDirReport): void {
  if (report.tightened.length > 0) {
    logger.warn(
      { dataDir: report.dir, tightened: report.tightened },
      'DATA_DIR was open to other users: made the folder 0700 and its files 0600',
    );
  }
  if (report.refused.length > 0) {
    logger.warn(
      { dataDir: report.dir, refused: report.refused },
      'DATA_DIR is open to other users and this process may not change that: restrict it to the service user',
    );
  }
}
