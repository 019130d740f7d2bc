import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { MEDIA_FORMATS, type MediaItem } from '@hablabot/contract';
import { notFound } from '../../platform/errors';
import { type FileStorage, STORAGE_KEY, type StoredFile, newStorageKey } from '../../platform/storage';
import { contentTypeOf, cleanFileName, extensionOf } from './media-types';
import { stageUpload } from './media-upload';
import type { MediaRecord, MediaRepository } from './media.repository';

/** `file_path` in the API is the storage key under this folder: `/storage/media/<key>`. */
const FILE_PATH_PREFIX = 'media/';

/** A file as /storage serves it: the opened bytes, the type they are served as, and its names. */
export interface PublicFile extends StoredFile {
  contentType: string;
  /** The name it was uploaded with, for a download's file name. */
  fileName: string;
  sha256: string;
  /** Images, video and audio may show in the browser; anything else is only ever a download. */
  inline: boolean;
}

/** The media library of each company: uploads judged by their bytes, files in storage, rows in the database. */
export function createMediaService(deps: { mediaRepository: MediaRepository; storage: FileStorage }) {
  const { mediaRepository: repo, storage } = deps;

  /** The API's view of a row; `origin` makes the storage path an absolute URL (WhatsApp fetches it). */
  function toItem(record: MediaRecord, origin: string): MediaItem {
    const publicUrl = storage.publicUrl(record.storage_key);
    return {
      id: record.id,
      file_name: record.file_name,
      file_path: `${FILE_PATH_PREFIX}${record.storage_key}`,
      url: new URL(publicUrl, origin).toString(),
      mime_type: record.mime_type,
      kind: record.kind,
      size: record.size,
      created_at: record.created_at,
    };
  }

  return {
    toItem,

    /**
     * Stores one upload: streamed to the staging folder and judged by its content (422 when refused),
     * moved into storage under a new random name, then recorded for the company.
     */
    async upload(
      companyId: number,
      userId: number | null,
      source: Readable,
      originalName: string,
    ): Promise<MediaRecord> {
      const staged = await stageUpload(source, originalName, storage.stagingDir);
      const key = newStorageKey(staged.ext);
      try {
        await storage.put(key, staged.file);
      } catch (err) {
        await fs.promises.rm(staged.file, { force: true });
        throw err;
      }
      try {
        return await repo.createMedia(companyId, {
          userId,
          fileName: cleanFileName(originalName, staged.ext),
          storageKey: key,
          mimeType: MEDIA_FORMATS[staged.ext].mime,
          kind: staged.kind,
          size: staged.size,
          sha256: staged.sha256,
        });
      } catch (err) {
        await storage.delete(key);
        throw err;
      }
    },

    async list(companyId: number, query: { search?: string; page: number; per_page: number }) {
      const { rows, total } = await repo.listMedia(companyId, {
        search: query.search,
        limit: query.per_page,
        offset: (query.page - 1) * query.per_page,
      });
      return {
        rows,
        pagination: {
          current_page: query.page,
          per_page: query.per_page,
          total,
          last_page: Math.max(1, Math.ceil(total / query.per_page)),
        },
      };
    },

    /** Deletes the company's file: the row first (so it is gone from every list), then the bytes. */
    async remove(companyId: number, id: number): Promise<void> {
      const row = await repo.deleteMedia(companyId, id);
      if (!row) throw notFound('media.not_found');
      await storage.delete(row.storage_key);
    },

    /**
     * Opens a library file for /storage by its public path ('media/<key>'): only a path storage handed
     * out, and only while the library still has its row. Undefined for anything else.
     */
    async openPublic(filePath: string): Promise<PublicFile | undefined> {
      if (!filePath.startsWith(FILE_PATH_PREFIX)) return undefined;
      const key = filePath.slice(FILE_PATH_PREFIX.length);
      if (!STORAGE_KEY.test(key)) return undefined;
      const ext = extensionOf(key);
      const contentType = contentTypeOf(ext);
      if (!contentType) return undefined;
      const row = await repo.findByStorageKey(key);
      if (!row) return undefined;
      const file = await storage.get(key);
      if (!file) return undefined;
      return Object.assign(file, {
        contentType,
        fileName: row.file_name,
        sha256: row.sha256,
        inline: MEDIA_FORMATS[ext as keyof typeof MEDIA_FORMATS].kind !== 'document',
      });
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
