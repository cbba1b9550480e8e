/** Tables of the photo storage drivers (migration 006-storage). */
export interface StorageTables {
  storage_copies: StorageCopiesTable;
}

/** One file `storage:migrate` copied to `target` (a storage location) and verified by its sha256. */
export interface StorageCopiesTable {
  target: string;
  key: string;
  sha256: string;
  size_bytes: number;
  copied_at: string;
}
