import { QUICK_REPLIES_MAX, type QuickReply, type QuickReplyRequest } from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import { conflict, invalid, notFound } from '../../platform/errors';
import type { FileStorage } from '../../platform/storage';
import type { MediaRepository } from '../media/media.repository';
import type { QuickRepliesRepository, QuickReplyRow, QuickReplyValues } from './quick-replies.repository';

/** A lost race on the unique (company, shortcut) index reads like the check that ran just before it. */
function uniqueShortcut(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict('quick_replies.shortcut_taken', 'shortcut');
  throw err;
}

/**
 * Saved answers the composer offers after '/': a shortcut unique within the company, a text, and
 * optionally a file of the company's own media library. Admins write them, agents read them (the
 * routes' guards); at most QUICK_REPLIES_MAX per company.
 */
export function createQuickRepliesService(deps: {
  quickRepliesRepository: QuickRepliesRepository;
  mediaRepository: Pick<MediaRepository, 'findMedia'>;
  storage: Pick<FileStorage, 'publicUrl'>;
}) {
  const { quickRepliesRepository: repo, mediaRepository, storage } = deps;

  /** The API's view; `origin` makes the file's storage path an absolute URL, as the media library does. */
  function toQuickReply(row: QuickReplyRow, origin: string): QuickReply {
    const hasMedia = row.media_id !== null && row.media_storage_key !== null;
    return {
      id: row.id,
      shortcut: row.shortcut,
      text: row.text,
      media_id: hasMedia ? row.media_id : null,
      media: hasMedia
        ? {
            id: row.media_id!,
            name: row.media_name ?? '',
            mime_type: row.media_mime_type ?? '',
            url: new URL(storage.publicUrl(row.media_storage_key!), origin).toString(),
          }
        : null,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The request's values, its file checked to be of the company's library (422 otherwise). */
  async function valuesOf(companyId: number, input: QuickReplyRequest): Promise<QuickReplyValues> {
    const mediaId = input.media_id ?? null;
    if (mediaId !== null && !(await mediaRepository.findMedia(companyId, mediaId)))
      throw invalid('media_id', 'quick_replies.unknown_media');
    return { shortcut: input.shortcut, text: input.text, mediaId };
  }

  async function get(companyId: number, id: number, origin: string): Promise<QuickReply> {
    const row = await repo.find(companyId, id);
    if (!row) throw notFound('quick_replies.not_found');
    return toQuickReply(row, origin);
  }

  return {
    async list(companyId: number, origin: string): Promise<QuickReply[]> {
      return (await repo.list(companyId)).map((row) => toQuickReply(row, origin));
    },

    async create(companyId: number, input: QuickReplyRequest, origin: string): Promise<QuickReply> {
      const values = await valuesOf(companyId, input);
      if (await repo.shortcutTaken(companyId, values.shortcut))
        throw conflict('quick_replies.shortcut_taken', 'shortcut');
      const id = await repo.create(companyId, values, QUICK_REPLIES_MAX).catch(uniqueShortcut);
      // A 422 names a field: the shortcut is where the form shows that no more fit.
      if (id === undefined) throw invalid('shortcut', 'quick_replies.too_many', { max: QUICK_REPLIES_MAX });
      return get(companyId, id, origin);
    },

    async update(
      companyId: number,
      id: number,
      input: QuickReplyRequest,
      origin: string,
    ): Promise<QuickReply> {
      if (!(await repo.find(companyId, id))) throw notFound('quick_replies.not_found');
      const values = await valuesOf(companyId, input);
      if (await repo.shortcutTaken(companyId, values.shortcut, id))
        throw conflict('quick_replies.shortcut_taken', 'shortcut');
      if (!(await repo.update(companyId, id, values).catch(uniqueShortcut)))
        throw notFound('quick_replies.not_found');
      return get(companyId, id, origin);
    },

    async remove(companyId: number, id: number): Promise<void> {
      if (!(await repo.remove(companyId, id))) throw notFound('quick_replies.not_found');
    },
  };
}

export type QuickRepliesService = ReturnType<typeof createQuickRepliesService>;
