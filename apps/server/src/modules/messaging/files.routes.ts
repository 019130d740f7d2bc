import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { conflict, notFound } from '../../platform/errors';
import { translate } from '../../platform/locale';
import { route } from '../../platform/route';
import type { ConversationAccess } from '../conversations/conversation-access';
import { conversationGuard } from '../conversations/conversation-guard';
import type { FileStorage } from '../../platform/storage';
import { contentDisposition } from '../media/storage.routes';
import { type MediaDownloads, cleanMimeType, extensionOfMime } from './media-download';
import type { MessagesRepository } from './messages.repository';

/** Types a browser may show in the page (the chat's players and images); anything else downloads. */
const INLINE = /^(image\/(jpeg|png|webp|gif)|video\/(mp4|3gpp)|audio\/[a-z0-9.+-]+)(;|$)/;

/**
 * GET /api/v1/admin/files/{id}: the file of message {id} (a customer's media, fetched from WhatsApp into
 * private storage, or the chat's copy of a library file it sent), for the team of the message's company:
 * its admins, and its agents when they may see the message's conversation. Another company's message, a
 * conversation the agent may not see, a message without a file → 404. Served with its stored type, a safe file name, `nosniff`, a sandbox and
 * `Cache-Control: private` (no shared cache may keep it).
 *
 * POST /api/v1/admin/messages/{id}/media/retry: a customer's media that failed to download is tried
 * again now, for the same team (404 as above; 409 when its media has not failed).
 */
export function filesRoutes(deps: {
  guards: Guards;
  messagesRepository: MessagesRepository;
  conversationAccess: ConversationAccess;
  mediaDownloads: Pick<MediaDownloads, 'retry'>;
  infra: { privateFiles: FileStorage };
}) {
  const { guards, messagesRepository, mediaDownloads } = deps;
  const visible = conversationGuard(deps.conversationAccess);
  const storage = deps.infra.privateFiles;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyMember);

    route(app, routes.messages.file, {
      schema: { tags: ['messages'], summary: "A message's media file (the company's team)" },
      handler: async (request, reply) => {
        const media = await messagesRepository.findMedia(companyIdOf(request), request.params.id);
        if (media) await visible.assertVisible(request, media.clientId, 'media.not_found');
        const file = media?.storageKey ? await storage.get(media.storageKey) : undefined;
        if (!media || !file) throw notFound('media.not_found');
        const contentType = cleanMimeType(media.mimeType);
        const inline = INLINE.test(contentType);
        const fileName = media.fileName ?? `${media.waType}-${media.id}.${extensionOfMime(contentType)}`;
        return reply
          .headers({
            'content-type': contentType,
            'content-length': String(file.size),
            'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', fileName),
            'x-content-type-options': 'nosniff',
            'content-security-policy': inline ? 'sandbox' : "default-src 'none'; sandbox",
            'cache-control': 'private, max-age=3600',
          })
          .send(file.stream());
      },
    });

    route(app, routes.messages.retryMedia, {
      schema: {
        tags: ['messages'],
        description:
          "Tries again now to download a customer's media that failed (media_status `failed`): it becomes `pending`, its tries start anew for as long as WhatsApp keeps it (7 days from the message), and the chat is told live. 409 when its media has not failed; 404 when the message is not the company's or the agent may not see its conversation.",
      },
      handler: async (request) => {
        const companyId = companyIdOf(request);
        const media = await messagesRepository.findMedia(companyId, request.params.id);
        if (!media) throw notFound('messaging.message_not_found');
        await visible.assertVisible(request, media.clientId, 'messaging.message_not_found');
        const message = await mediaDownloads.retry(companyId, media.id);
        if (!message) throw conflict('messaging.media.not_failed');
        return { data: message, message: translate(request.lang, 'messaging.media.retrying') };
      },
    });
  };
}
