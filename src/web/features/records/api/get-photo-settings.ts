import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PhotoSettings } from '#shared/features/photos/photo-uploads';
import { apiFetch, isNetworkError } from '#web/platform/lib/api-client';
import { readCopy, saveCopy } from '../device/device-copies';

const PHOTO_SETTINGS_COPY_ID = 'photo-settings';

/** How photos are prepared (right-sized or original); without a connection, what the phone last heard. */
export const getPhotoSettings = async (): Promise<PhotoSettings> => {
  try {
    const settings = await apiFetch<PhotoSettings>('/api/photo-settings');
    saveCopy(PHOTO_SETTINGS_COPY_ID, null, settings);
    return settings;
  } catch (error) {
    const copy = isNetworkError(error) ? await readCopy<PhotoSettings>(PHOTO_SETTINGS_COPY_ID) : undefined;
    if (copy) return copy.data;
    throw error;
  }
};

export const usePhotoSettings = () =>
  useQuery(
    queryOptions({
      queryKey: ['photo-settings'],
      queryFn: getPhotoSettings,
      staleTime: 5 * 60_000,
      networkMode: 'always',
    }),
  );
