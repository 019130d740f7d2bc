import fs from 'node:fs';
import { DEFAULT_LANGUAGE } from '@hablabot/contract';
import {
  downloadMedia,
  type MediaProblem,
  retrieveMedia,
  sameSha256,
} from '../../integrations/whatsapp/media';
import { z } from 'zod';
import { on } from '../../platform/events/domain-events';
import { defineJob } from '../../platform/jobs/definitions';
import type { JobContext, JobQueue } from '../../platform/jobs/jobs';
import { translate } from '../../platform/locale';
import { type FileStorage, newStorageKey } from '../../platform/storage';
import type { TransactionScope, WithTransaction } from '../../repositories';
import type { SettingsService } from '../settings/settings.service';
import type { MessagesRepository } from './messages.repository';

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    'messaging.media-download': { companyId: number; messageId: number };
  }
}

export const MEDIA_DOWNLOAD_JOB = 'messaging.media-download';

const KB = 1024;
const MB = 1024 * KB;

/** WhatsApp's size limit of each media type a customer can send. */
export const INBOUND_MEDIA_LIMITS: Record<string, number> = {
  image: 5 * MB,
  video: 16 * MB,
  audio: 16 * MB,
  document: 100 * MB,
  sticker: 500 * KB,
};

/** Runs of the job in all: the first and four retries (5 s, 10 s, 20 s, 40 s apart by default). */
export const MEDIA_DOWNLOAD_ATTEMPTS = 5;
export const MEDIA_DOWNLOAD_BACKOFF_MS = 5_000;
const DOWNLOAD_TIMEOUT_MS = 120_000;

/** The extension a stored file gets from its type; anything else is stored as `.bin`. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt',
};

/** A media type as we keep and serve it: lower case, one optional parameter; else octet-stream. */
export function cleanMimeType(value: string | null | undefined): string {
  const v = (value ?? '').trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}(\s*;\s*[a-z0-9_-]{1,32}=[a-z0-9_.-]{1,64})?$/.test(
    v,
  )
    ? v
    : 'application/octet-stream';
}

export const extensionOfMime = (mime: string) => EXTENSIONS[mime.split(';')[0].trim()] ?? 'bin';

const formatLimit = (bytes: number) => (bytes >= MB ? `${bytes / MB} MB` : `${bytes / KB} KB`);

/**
 * A customer's media, fetched from WhatsApp into private storage by a job (see "Media download" in
 * docs/modules/messaging.md). A media message enqueues the job when it is stored; the job asks Graph for a
 * fresh URL on every run, downloads within the type's limit, checks the SHA-256, stores the file and sets
 * the message's file. Transient failures retry with backoff; a permanent one (or the last retry) leaves
 * the message without a file and with a readable note in `error_message`.
 */
export function createMediaDownloads(deps: {
  jobs: Pick<JobQueue, 'enqueue'>;
  settings: Pick<SettingsService, 'credentials'>;
  messagesRepository: MessagesRepository;
  withTransaction: WithTransaction;
  storage: FileStorage;
  backoffMs?: number;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { jobs, settings, messagesRepository: repo, storage } = deps;
  const note = (key: string, params?: Record<string, string | number>) =>
    translate(DEFAULT_LANGUAGE, `messaging.media.${key}`, params);

  /** Changes the message's file (or note) and emits `message.updated`, in one transaction. */
  function update(companyId: number, messageId: number, change: (tx: TransactionScope) => Promise<unknown>) {
    return deps.withTransaction(async (tx) => {
      const changed = await change(tx);
      if (changed)
        tx.events.emit('message.updated', {
          companyId,
          clientId: (changed as { client_id: number }).client_id,
          messageId,
        });
      return changed !== undefined;
    });
  }

  async function fail(companyId: number, messageId: number, text: string) {
    await update(companyId, messageId, (tx) =>
      tx.messagesRepository.setMediaFailed(companyId, messageId, text),
    );
  }

  async function run(payload: { companyId: number; messageId: number }, context: JobContext): Promise<void> {
    const { companyId, messageId } = payload;
    const media = await repo.findMedia(companyId, messageId);
    if (!media || media.storageKey || !media.mediaId) return;
    const limit = INBOUND_MEDIA_LIMITS[media.waType] ?? INBOUND_MEDIA_LIMITS[media.messageType] ?? 16 * MB;
    const credentials = await settings.credentials(companyId);
    const token = credentials.whatsAppApiKey;
    if (!token) return fail(companyId, messageId, note('no_token'));

    const lastTry = context.attempt >= MEDIA_DOWNLOAD_ATTEMPTS;
    const give = async (p: MediaProblem) => {
      deps.log?.warn(
        { companyId, messageId, attempt: context.attempt, ...p },
        'whatsapp media download failed',
      );
      if (p.transient && !lastTry) throw new Error(`media download: ${p.detail}`);
      const text =
        p.reason === 'too_large'
          ? note('too_large', { limit: formatLimit(limit) })
          : p.reason === 'unavailable'
            ? note('unavailable')
            : note(p.reason);
      await fail(companyId, messageId, text);
    };

    const info = await retrieveMedia({
      baseUrl: credentials.facebookMessagesApiUrl,
      token,
      mediaId: media.mediaId,
    });
    if (!info.ok) return give(info);
    if (info.fileSize !== null && info.fileSize > limit)
      return give({ ok: false, reason: 'too_large', transient: false, detail: `file_size ${info.fileSize}` });

    const downloaded = await downloadMedia({
      url: info.url,
      token,
      maxBytes: limit,
      dir: storage.stagingDir,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
    });
    if (!downloaded.ok) return give(downloaded);
    try {
      // Graph's hash is required (retrieveMedia refuses an answer without one); the webhook's, when it
      // gave one, must agree too.
      const expected = [info.sha256, media.sha256].filter((h): h is string => !!h);
      if (expected.some((h) => !sameSha256(h, downloaded.sha256)))
        return await give({
          ok: false,
          reason: 'checksum',
          transient: false,
          detail: `sha256 ${expected.join(' / ')}`,
        });
      const mimeType = cleanMimeType(info.mimeType ?? media.mimeType);
      const key = newStorageKey(extensionOfMime(mimeType));
      await storage.put(key, downloaded.file);
      const stored = await update(companyId, messageId, (tx) =>
        tx.messagesRepository.setMediaStored(companyId, messageId, { storageKey: key, mimeType }),
      );
      // Another run stored it first: this copy is not needed.
      if (!stored) await storage.delete(key);
    } finally {
      await fs.promises.rm(downloaded.file, { force: true });
    }
  }

  return {
    /** The download's job: transient failures retry with backoff (`enqueueFor` sets them). */
    job: defineJob({
      name: MEDIA_DOWNLOAD_JOB,
      schema: z.object({ companyId: z.number().int(), messageId: z.number().int() }),
      handler: run,
    }),
    /** Queues the download of a customer's media message not fetched yet (others are ignored). */
    async enqueueFor(companyId: number, messageId: number): Promise<void> {
      const media = await repo.findMedia(companyId, messageId);
      if (!media?.mediaId || media.storageKey) return;
      await jobs.enqueue(
        MEDIA_DOWNLOAD_JOB,
        { companyId, messageId },
        {
          attempts: MEDIA_DOWNLOAD_ATTEMPTS,
          backoff: deps.backoffMs ?? MEDIA_DOWNLOAD_BACKOFF_MS,
          dedupeKey: `${companyId}:${messageId}`,
        },
      );
    },
  };
}

export type MediaDownloads = ReturnType<typeof createMediaDownloads>;

/** A customer's media message is fetched from WhatsApp in a job. */
export const mediaDownloadSubscriber = (downloads: Pick<MediaDownloads, 'enqueueFor'>) =>
  on('message.received', 'messaging.media-download', async (e) => {
    if (e.media) await downloads.enqueueFor(e.companyId, e.messageId);
  });
