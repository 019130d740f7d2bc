import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { invalid } from '../../platform/errors';
import { type FileStorage, newStorageKey } from '../../platform/storage';
import type { MediaRepository } from '../media/media.repository';
import type { OutboundContent } from './send-outcome';

/**
 * A file of the company's media library sent in the chat ('Biblioteca de medios' in the composer):
 * WhatsApp fetches it by its public link, as a mass message's header; the chat keeps a copy in private
 * storage, like a customer's media, so the message still shows its file after the library's is deleted.
 * A file that is not the company's (or no longer exists) is a 422 on `media_id`. A send that stops before
 * its message is stored (the 24-hour window closed, a quote of another conversation, the client gone)
 * removes its copy; a send WhatsApp refuses keeps it with the stored message (status 4), which the chat
 * still shows and an agent may send again.
 */
export function createLibraryMedia(deps: {
  mediaRepository: Pick<MediaRepository, 'findMedia'>;
  storage: Pick<FileStorage, 'get' | 'publicUrl'>;
  privateFiles: Pick<FileStorage, 'put' | 'stagingDir' | 'delete'>;
}) {
  const { mediaRepository, storage, privateFiles } = deps;

  /** The library file copied into private storage: its key there. */
  async function keepCopy(storageKey: string): Promise<string | undefined> {
    const file = await storage.get(storageKey);
    if (!file) return undefined;
    const staged = path.join(privateFiles.stagingDir, `library-${randomBytes(8).toString('hex')}`);
    try {
      await pipeline(file.stream(), fs.createWriteStream(staged, { mode: 0o600 }));
      const key = newStorageKey(path.extname(storageKey).slice(1) || 'bin');
      await privateFiles.put(key, staged);
      return key;
    } finally {
      await fs.promises.rm(staged, { force: true });
    }
  }

  return {
    /**
     * Runs `send` for `content` (a library file's, or any other); when it throws, nothing refers to the
     * file's private copy, so it is removed before the error goes on.
     */
    async sending<T>(content: string | OutboundContent, send: () => Promise<T>): Promise<T> {
      try {
        return await send();
      } catch (err) {
        if (typeof content !== 'string' && content.type !== 'text' && content.storageKey)
          await privateFiles.delete(content.storageKey).catch(() => undefined);
        throw err;
      }
    },

    /**
     * What to send for library file `mediaId` with `caption` (empty: none; audio never has one), its link
     * made absolute on `origin` (PUBLIC_URL, or the request's).
     */
    async content(
      companyId: number,
      mediaId: number,
      caption: string,
      origin: string,
    ): Promise<OutboundContent & { type: 'image' | 'video' | 'audio' | 'document' }> {
      const media = await mediaRepository.findMedia(companyId, mediaId);
      if (!media) throw invalid('media_id', 'messaging.unknown_media');
      const copy = await keepCopy(media.storage_key);
      if (!copy) throw invalid('media_id', 'messaging.unknown_media');
      return {
        type: media.kind,
        link: new URL(storage.publicUrl(media.storage_key), origin).toString(),
        caption: media.kind === 'audio' || caption.trim() === '' ? undefined : caption,
        fileName: media.file_name,
        mimeType: media.mime_type,
        storageKey: copy,
      };
    },
  };
}

export type LibraryMedia = ReturnType<typeof createLibraryMedia>;
