/** The public face of the backups module: other code imports only from here. */
export { BackupFormatError, type Manifest } from './backup-archive.js';
export { scheduledBackupFolder, startScheduledBackups } from './backup-schedule.js';
export {
  BackupError,
  type BackupTarget,
  createBackup,
  describeManifest,
  restoreBackup,
} from './backup-service.js';
export { type MoveResult, moveToPostgres } from './move-to-postgres.js';
