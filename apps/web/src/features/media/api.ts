import type { Answer, MediaItem } from '@hablabot/contract';
import { mediaApi } from '@hablabot/contract/api';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call, endpointPath } from '../../lib/api-client';
import { apiUpload } from '../../lib/api-upload';

/** Query keys of the media library; a list is keyed by its search. */
export const mediaKeys = {
  all: ['media'] as const,
  list: (search: string) => ['media', 'list', search] as const,
};

/** Files per page of the library grid and the picker (the server allows up to 1,000). */
export const MEDIA_PAGE_SIZE = 60;

export function fetchMediaPage(search: string, page: number, signal?: AbortSignal) {
  return call(
    mediaApi.list,
    { query: { search: search || undefined, page, per_page: MEDIA_PAGE_SIZE } },
    { signal },
  );
}

/**
 * The company's library, newest first, a page at a time; `search` (part of the name, case and accents
 * ignored) is applied by the server. `items` joins the pages loaded so far.
 */
export function useMediaLibrary(search: string) {
  const query = useInfiniteQuery({
    queryKey: mediaKeys.list(search),
    queryFn: ({ pageParam, signal }) => fetchMediaPage(search, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pagination.current_page < last.pagination.last_page ? last.pagination.current_page + 1 : undefined,
    placeholderData: (previous) => previous,
  });
  const items = useMemo<MediaItem[]>(
    () => query.data?.pages.flatMap((page) => page.media) ?? [],
    [query.data],
  );
  const total = query.data?.pages[0]?.pagination.total ?? 0;
  return { ...query, items, total };
}

export interface UploadVariables {
  file: File;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * POST /admin/media/upload (multipart field `file`), reporting progress as a percentage. The one call that
 * goes through apiUpload (XMLHttpRequest, for the progress) instead of `call`: its path and answer type
 * still come from the contract.
 */
export function useUploadMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, onProgress, signal }: UploadVariables) => {
      const form = new FormData();
      form.append('file', file, file.name);
      const response = await apiUpload<Answer<typeof mediaApi.upload>>(endpointPath(mediaApi.upload), form, {
        signal,
        onProgress: onProgress ? (sent, total) => onProgress(Math.round((sent / total) * 100)) : undefined,
      });
      return response.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}

/** DELETE /admin/media/{id}. */
export function useDeleteMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await call(mediaApi.remove, { params: { id } })) ?? {},
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaKeys.all }),
  });
}
