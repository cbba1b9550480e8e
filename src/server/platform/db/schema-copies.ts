/** The database's epochs and the backups taken (migration 040, decision 106). */
export interface CopiesTables {
  database_epochs: DatabaseEpochsTable;
  backups_taken: BackupsTakenTable;
}

/** One life of the database: made here ('nueva') or restored from a copy. */
export interface DatabaseEpochsTable {
  /** 1 for a new database, one more at each restore. */
  epoch: number;
  started_at: string;
  cause: 'nueva' | 'copia' | 'replica' | 'restaurada' | 'promovida';
  /**
   * What this database is, to notice when it is another one: SQLite, the id kept beside its file
   * (`comando.epoch`); PostgreSQL, the cluster's system identifier and timeline.
   */
  origin: string;
  /** The last change the restored copy held (the latest audit row's time, or the backup's instant). */
  restored_until: string | null;
}

/** One `npm run cli -- backup` that finished: its instant and what it holds. */
export interface BackupsTakenTable {
  taken_at: string;
  finished_at: string;
  rows: number;
  photos: number;
  missing_photos: number;
}
