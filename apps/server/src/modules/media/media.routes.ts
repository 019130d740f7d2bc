import fastifyMultipart from '@fastify/multipart';
import { MEDIA_UPLOAD_MAX_BYTES } from '@hablabot/contract';
import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Guards, companyIdOf, userOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { translate } from '../../platform/locale';
import { route } from '../../platform/route';
import { adminsOrMembers, forTeamMembers } from '../conversations/conversation-guard';
import type { MediaService } from './media.service';

const declared = routes.media;

const fileRequired = () =>
  new AppError(422, 'media.file_required', undefined, { file: ['media.file_required'] });

/**
 * The origin absolute media URLs are built on: PUBLIC_URL when it is set (the address WhatsApp and
 * browsers reach), else the origin the request came to.
 */
export function originOf(request: FastifyRequest, publicUrl?: string): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * After a refusal the rest of the upload is still on its way. A browser reads the answer only once it has
 * sent the whole body, so the rest is read and dropped (never kept): closing the connection instead would
 * show the browser a broken connection, and leaving it unread would stall it. The server-wide request
 * timeout still bounds how long a caller can keep sending.
 */
function discardRestOfBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  raw.unpipe();
  raw.resume();
}

export function mediaRoutes(deps: { media: MediaService; guards: Guards; publicUrl?: string }) {
  const { media, guards, publicUrl } = deps;
  return async (instance: FastifyInstance) => {
    // Multipart is parsed in this plugin only: no other route accepts file uploads.
    await instance.register(fastifyMultipart, {
      // Busboy's own limit sits above ours so the upload's rules (per kind, 422) answer first.
      limits: {
        fileSize: MEDIA_UPLOAD_MAX_BYTES + 64 * 1024,
        files: 1,
        fields: 10,
        parts: 12,
        fieldSize: 1024,
      },
    });
    const app = instance;
    // onRequest, not preHandler: a stranger's upload is never read, and 401/403 come before any 422.
    // Admins only, except the list: agents pick library files to send in the chat.
    app.addHook('onRequest', adminsOrMembers(guards));
    const tags = ['media'];

    async function upload(request: FastifyRequest, reply: FastifyReply) {
      if (!request.isMultipart()) throw fileRequired();
      let part: Awaited<ReturnType<FastifyRequest['file']>>;
      try {
        part = await request.file();
      } catch {
        discardRestOfBody(request);
        throw fileRequired();
      }
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        discardRestOfBody(request);
        throw fileRequired();
      }
      try {
        const record = await media.upload(companyIdOf(request), userOf(request).id, part.file, part.filename);
        return reply.status(201).send({
          success: true,
          message: translate(request.lang, 'media.uploaded'),
          media: media.toItem(record, originOf(request, publicUrl)),
        });
      } catch (err) {
        discardRestOfBody(request);
        // An empty file input arrives as a part with no name and no bytes: nothing was chosen.
        if (err instanceof AppError && err.key === 'media.empty_file' && !part.filename) throw fileRequired();
        throw err;
      }
    }

    const uploadSchema = {
      tags,
      summary: 'Upload a file to the library (multipart/form-data, field `file`)',
      description:
        'Accepted by content, not by name: JPEG/PNG images up to 5 MB, MP4/3GP video and AAC/AMR/MP3/M4A/OGG (Opus) audio up to 16 MB, PDF/Word/Excel/PowerPoint/TXT documents up to 100 MB. 422 otherwise.',
      consumes: ['multipart/form-data'],
    };
    route(app, declared.uploadLegacy, {
      schema: uploadSchema,
      handler: (request, reply) => upload(request, reply),
    });
    route(app, declared.upload, {
      schema: uploadSchema,
      handler: (request, reply) => upload(request, reply),
    });

    route(app, declared.list, {
      ...forTeamMembers,
      schema: { tags },
      handler: async (request) => {
        const { rows, pagination } = await media.list(companyIdOf(request), request.query);
        const origin = originOf(request, publicUrl);
        return { media: rows.map((row) => media.toItem(row, origin)), pagination };
      },
    });

    route(app, declared.remove, {
      schema: { tags },
      handler: async (request) => {
        await media.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'media.deleted') };
      },
    });
  };
}
