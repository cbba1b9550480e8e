import type { Generated } from 'kysely';

/** Tables of procedure records, votes, photos and result counters (migration 003-records). */
export interface RecordsTables {
  records: RecordsTable;
  record_votes: RecordVotesTable;
  photos: PhotosTable;
  vote_totals: VoteTotalsTable;
  candidate_totals: CandidateTotalsTable;
  quarter_totals: QuarterTotalsTable;
  record_counts: RecordCountsTable;
  photo_totals: PhotoTotalsTable;
  personal_data_purges: PersonalDataPurgesTable;
  photo_reviews: PhotoReviewsTable;
  review_grants: ReviewGrantsTable;
}

export type RecordStatus = 'pendiente' | 'anulado';

/** One procedure record (the spec's "trámite"), always in exactly one department. */
export interface RecordsTable {
  id: Generated<number>;
  department_id: number;
  /** Identifier in the system the record was imported from; null for records created here. */
  source_id: string | null;
  comunidad: string;
  nombre: string;
  ubch: string;
  telefono: string;
  /** Only 'pendiente' records are shown to validators. */
  status: RecordStatus;
  /** Lowercased, accent-free text of name, phone (also digits only), community and UBCH, for search. */
  search_text: string;
  /**
   * Set by the vote (a conditional UPDATE: the first one wins); only an admin's correction changes or
   * clears it afterwards.
   */
  voted_at: string | null;
  voted_by: string | null;
  /** The spec's `voto`: the chosen candidate codes, comma-joined, '' for a vote with no candidate. */
  vote_codes: string | null;
  /** The current photo of each ballot slot (photos.id), null while the slot is empty. */
  gobernador_photo_id: number | null;
  an_photo_id: number | null;
  clez_photo_id: number | null;
  /** 1 once the record has a vote and its three photos; kept in the same transaction as those. */
  completed: number;
  /**
   * Who made it validated (the vote or the photo that completed it), set with `completed`; null while
   * it is not validated (migration 016).
   */
  validated_by: Generated<string | null>;
  /**
   * 1 while the vote (if any) is in the result counters; 0 only for a record voided with "its vote no
   * longer counts" (migration 007). A pending record always has 1.
   */
  vote_counted: Generated<number>;
  /** How many times the vote was written: the vote, each correction, a vote again after a clear. */
  vote_revision: Generated<number>;
  created_at: string;
  updated_at: string;
  /**
   * What a validator types in an SMS vote (src/shared/platform/record-code.ts), unique; written in the
   * transaction that inserts the record (migration 029).
   */
  short_code: string | null;
  /**
   * Each ballot slot's review (migration 041, decision 134): null while its photo is unreviewed;
   * 'conforme'; or 'ilegible' / 'no_corresponde' while the slot is reopened (empty, the card asking for
   * another photo with the reviewer's note).
   */
  gobernador_review: Generated<ReviewVerdictColumn | null>;
  an_review: Generated<ReviewVerdictColumn | null>;
  clez_review: Generated<ReviewVerdictColumn | null>;
  gobernador_review_note: Generated<string | null>;
  an_review_note: Generated<string | null>;
  clez_review_note: Generated<string | null>;
}

export type ReviewVerdictColumn = 'conforme' | 'ilegible' | 'no_corresponde';

/** One review of one photo (each photo is reviewed once): the slot's history with the photos (migration 041). */
export interface PhotoReviewsTable {
  id: Generated<number>;
  record_id: number;
  photo_id: number;
  kind: PhotoKindColumn;
  verdict: ReviewVerdictColumn;
  note: string | null;
  reviewed_by: string;
  reviewed_at: string;
}

/** Who may review the records of a municipality (lowercased e-mail), named by an admin (migration 041). */
export interface ReviewGrantsTable {
  department_id: number;
  email: string;
  created_at: string;
}

export interface RecordVotesTable {
  record_id: number;
  candidate_id: number;
  created_at: string;
}

export type PhotoKindColumn = 'gobernador' | 'an' | 'clez';

/** Every photo ever accepted, current or replaced: the evidence is never deleted. */
export interface PhotosTable {
  id: Generated<number>;
  record_id: number;
  kind: PhotoKindColumn;
  /** The file as uploaded (JPEG or HEIC). */
  original_key: string;
  /** A browser-ready JPEG, orientation applied. */
  display_key: string;
  thumb_key: string;
  sha256: string;
  size_bytes: number;
  content_type: 'image/jpeg' | 'image/heic';
  width: number;
  height: number;
  uploaded_by: string;
  uploaded_at: string;
  /** Set when an admin replaced this photo with another one. */
  replaced_at: string | null;
  replaced_by: string | null;
  /** The Dropbox shared link of the original (Dropbox driver only; migration 006). */
  shared_url: string | null;
}

/** Records voted per department (including votes for no candidate). */
export interface VoteTotalsTable {
  department_id: number;
  ballots: number;
}

/** Votes per candidate per department, incremented in the vote's own transaction. */
export interface CandidateTotalsTable {
  department_id: number;
  candidate_id: number;
  votes: number;
}

/**
 * Votes per quarter of an hour of voted_at, department and candidate (migration 028, decision 083): the
 * timeline's counters, moved wherever candidate_totals moves. `hour` is voted_at's ISO prefix
 * 'YYYY-MM-DDTHH' (UTC), `quarter` its minutes / 15 (0 to 3).
 */
export interface QuarterTotalsTable {
  hour: string;
  quarter: number;
  department_id: number;
  candidate_id: number;
  votes: number;
}

/**
 * Ballot photos received per department, replacements included (migration 032, decision 087): moved in the photo's transaction, so a photo moves the live stream as a vote does.
 */
export interface PhotoTotalsTable {
  department_id: number;
  photos: number;
}

/**
 * Each department's pending records, how many are voted and how many validated (vote and three
 * photos): the validator's progress line without counting thousands of rows. Moved in the same
 * transaction as the insert, vote or photo that changes them.
 */
export interface RecordCountsTable {
  department_id: number;
  total: number;
  voted: number;
  validated: number;
  /** Validated records whose three photos were reviewed 'conforme' (migration 041). */
  reviewed: Generated<number>;
}

/** Each purge of personal data and the new election day started after it (migration 036, decision 093). */
export interface PersonalDataPurgesTable {
  purged_at: string;
  purged_by: string;
  records: number;
  new_day_at: string | null;
  new_day_by: string | null;
}
