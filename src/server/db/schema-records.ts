/** Tables of procedure records, votes and photos (migration 003-records). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the records feature
export interface RecordsTables {}
