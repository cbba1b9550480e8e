import type { SnapshotQuery } from '#server/platform/db/backup';

/**
 * What files the copied database names, read from the copy itself (its snapshot): the three keys of
 * every ballot photo, current or replaced, and the candidates' photo addresses.
 */
export async function namedPhotoFiles(
  query: SnapshotQuery,
): Promise<{ photoKeys: string[]; candidatePhotoUrls: string[] }> {
  const photos = await query('select original_key, display_key, thumb_key from photos');
  const candidates = await query('select photo_url from candidates');
  return {
    photoKeys: photos.flatMap((r) => [String(r.original_key), String(r.display_key), String(r.thumb_key)]),
    candidatePhotoUrls: candidates.map((r) => String(r.photo_url ?? '')),
  };
}
