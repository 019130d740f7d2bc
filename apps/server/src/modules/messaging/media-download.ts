import fs from 'node:fs';
import { DEFAULT_LANGUAGE, type Message } from '@hablabot/contract';
import {
  downloadMedia,
  type MediaProblem,
  retrieveMedia,
  sameSha256,
} from '../../integrations/whatsapp/media';
import type { TokenWatcher } from '../../integrations/whatsapp/cloud-api';
import { z } from 'zod';
import { on } from '../../platform/events/domain-events';
import { defineJob } from '../../platform/jobs/definitions';
import type { JobQueue } from '../../platform/jobs/jobs';
import { translate } from '../../platform/locale';
import { type FileStorage, newStorageKey } from '../../platform/storage';
import type { TransactionScope, WithTransaction } from '../../repositories';
import type { SettingsService } from '../settings/settings.service';
import { MEDIA_KEPT_MS, MEDIA_RETRY_WAITS_MS, type MediaRetryOptions, nextMediaTry } from './media-retry';
import type { StoredMedia } from './message-rows';
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

/** Why a try failed: WhatsApp's answer, or no token to ask with. */
type Problem = Omit<MediaProblem, 'reason'> & { reason: MediaProblem['reason'] | 'no_token' };

const formatLimit = (bytes: number) => (bytes >= MB ? `${bytes / MB} MB` : `${bytes / KB} KB`);

/**
 * A customer's media, fetched from WhatsApp into private storage by a job (see "Media download" in
 * docs/modules/messaging.md). A media message is stored with its media pending and enqueues the job; each
 * run asks Graph for a fresh URL, downloads within the type's limit, checks the SHA-256, stores the file
 * and makes the media ready. A failure that may pass (5xx, timeout, expired URL, network) keeps it
 * pending and queues the next try after the schedule's wait (media-retry.ts), for as long as WhatsApp
 * keeps the media (7 days from the message); a permanent one, or a failure on the last try, makes it
 * failed with a readable note in `error_message`. Every change of the media's state emits
 * `message.updated`. The download follows the message's stored state, never the webhook: a delivery
 * WhatsApp repeats is a duplicate of the message and changes nothing here.
 */
export function createMediaDownloads(deps: {
  jobs: Pick<JobQueue, 'enqueue'>;
  settings: Pick<SettingsService, 'credentials'>;
  messagesRepository: MessagesRepository;
  withTransaction: WithTransaction;
  storage: FileStorage;
  retry?: MediaRetryOptions;
  log?: { warn(obj: object, msg: string): void };
  /** Told when WhatsApp refuses the stored token (190) or accepts it (token-health.ts). */
  tokens?: TokenWatcher;
}) {
  const { jobs, settings, messagesRepository: repo, storage } = deps;
  const clock = deps.retry?.clock ?? { now: () => Date.now() };
  const waitsMs = deps.retry?.waitsMs ?? MEDIA_RETRY_WAITS_MS;
  const keptMs = deps.retry?.keptMs ?? MEDIA_KEPT_MS;
  const note = (key: string, params?: Record<string, string | number>) =>
    translate(DEFAULT_LANGUAGE, `messaging.media.${key}`, params);

  /** Changes the message's media and emits `message.updated` when it changed, in one transaction. */
  function update(
    companyId: number,
    messageId: number,
    change: (tx: TransactionScope) => Promise<{ client_id: number } | undefined>,
  ) {
    return deps.withTransaction(async (tx) => {
      const changed = await change(tx);
      if (changed) tx.events.emit('message.updated', { companyId, clientId: changed.client_id, messageId });
      return changed !== undefined;
    });
  }

  /** Queues a run of the download `delayMs` from now (one waiting run per message). */
  function schedule(companyId: number, messageId: number, delayMs = 0) {
    return jobs.enqueue(
      MEDIA_DOWNLOAD_JOB,
      { companyId, messageId },
      // The tries are counted on the message; the queue's own retries only cover a run that broke off
      // before it could note its outcome (the database unreachable, the process stopped).
      { delayMs: Math.max(0, Math.round(delayMs)), attempts: 3, dedupeKey: `${companyId}:${messageId}` },
    );
  }

  const limitOf = (media: StoredMedia) =>
    INBOUND_MEDIA_LIMITS[media.waType] ?? INBOUND_MEDIA_LIMITS[media.messageType] ?? 16 * MB;

  const problem = (reason: Problem['reason'], transient: boolean, detail: string): Problem => ({
    ok: false,
    reason,
    transient,
    detail,
  });

  /** One try: the file stored (by this run or one before it), or what went wrong. */
  async function fetchOnce(
    companyId: number,
    media: StoredMedia & { mediaId: string },
  ): Promise<{ stored: true } | Problem> {
    const limit = limitOf(media);
    const credentials = await settings.credentials(companyId);
    const token = credentials.whatsAppApiKey;
    if (!token) return problem('no_token', false, 'no token in the settings');

    const info = await retrieveMedia({
      baseUrl: credentials.facebookMessagesApiUrl,
      token,
      mediaId: media.mediaId,
      timeoutMs: deps.retry?.retrieveTimeoutMs,
    });
    if (info.ok) await deps.tokens?.accepted(companyId);
    else if (info.reason === 'bad_token') await deps.tokens?.refused(companyId);
    if (!info.ok) return info;
    if (info.fileSize !== null && info.fileSize > limit)
      return problem('too_large', false, `file_size ${info.fileSize}`);

    const downloaded = await downloadMedia({
      url: info.url,
      token,
      maxBytes: limit,
      dir: storage.stagingDir,
      timeoutMs: deps.retry?.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS,
    });
    if (!downloaded.ok) return downloaded;
    try {
      // Graph's hash is required (retrieveMedia refuses an answer without one); the webhook's, when it
      // gave one, must agree too.
      const expected = [info.sha256, media.sha256].filter((h): h is string => !!h);
      if (expected.some((h) => !sameSha256(h, downloaded.sha256)))
        return problem('checksum', false, `sha256 ${expected.join(' / ')}`);
      const mimeType = cleanMimeType(info.mimeType ?? media.mimeType);
      const key = newStorageKey(extensionOfMime(mimeType));
      await storage.put(key, downloaded.file);
      const stored = await update(companyId, media.id, (tx) =>
        tx.messagesRepository.setMediaStored(companyId, media.id, { storageKey: key, mimeType }),
      );
      // Another run stored it first: this copy is not needed.
      if (!stored) await storage.delete(key);
      return { stored: true };
    } finally {
      await fs.promises.rm(downloaded.file, { force: true });
    }
  }

  async function run(payload: { companyId: number; messageId: number }): Promise<void> {
    const { companyId, messageId } = payload;
    const media = await repo.findMedia(companyId, messageId);
    if (!media?.mediaId || media.storageKey || media.status !== 'pending') return;
    const attempt = media.attempts + 1;
    let outcome: { stored: true } | Problem;
    try {
      outcome = await fetchOnce(companyId, { ...media, mediaId: media.mediaId });
    } catch (err) {
      // Our side failed (storage, an unexpected answer): worth another try like an outage.
      outcome = problem('unavailable', true, `download broke off: ${(err as Error).message}`);
    }
    if ('stored' in outcome) return;
    deps.log?.warn({ companyId, messageId, attempt, ...outcome }, 'whatsapp media download failed');
    if (outcome.transient) {
      const now = clock.now();
      const next = nextMediaTry({
        attempts: attempt,
        now,
        sentAt: Date.parse(media.createdAt),
        waitsMs,
        keptMs,
      });
      if (next !== null) {
        if (await repo.noteMediaTry(companyId, messageId, attempt))
          await schedule(companyId, messageId, next - now);
        return;
      }
    }
    const text =
      outcome.reason === 'too_large'
        ? note('too_large', { limit: formatLimit(limitOf(media)) })
        : note(outcome.reason);
    await update(companyId, messageId, (tx) =>
      tx.messagesRepository.setMediaFailed(companyId, messageId, text),
    );
  }

  return {
    /** The download's job: one try per run; the next try is queued by the run itself (see above). */
    job: defineJob({
      name: MEDIA_DOWNLOAD_JOB,
      schema: z.object({ companyId: z.number().int(), messageId: z.number().int() }),
      handler: (payload) => run(payload),
    }),
    /** Queues the download of a customer's media message still pending (others are ignored). */
    async enqueueFor(companyId: number, messageId: number): Promise<void> {
      const media = await repo.findMedia(companyId, messageId);
      if (!media?.mediaId || media.status !== 'pending') return;
      await schedule(companyId, messageId);
    },
    /**
     * Tries a failed download again now (POST /admin/messages/{id}/media/retry): the media becomes
     * pending, its tries counted anew, and the chat is told. Undefined when its media had not failed.
     */
    async retry(companyId: number, messageId: number): Promise<Message | undefined> {
      const restarted = await deps.withTransaction(async (tx) => {
        const message = await tx.messagesRepository.restartMedia(companyId, messageId);
        if (message) tx.events.emit('message.updated', { companyId, clientId: message.client_id, messageId });
        return message;
      });
      if (restarted) await schedule(companyId, messageId);
      return restarted;
    },
  };
}

export type MediaDownloads = ReturnType<typeof createMediaDownloads>;

/** A customer's media message is fetched from WhatsApp in a job. */
export const mediaDownloadSubscriber = (downloads: Pick<MediaDownloads, 'enqueueFor'>) =>
  on('message.received', 'messaging.media-download', async (e) => {
    if (e.media) await downloads.enqueueFor(e.companyId, e.messageId);
  });
