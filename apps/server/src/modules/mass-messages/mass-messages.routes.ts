import fastifyMultipart from '@fastify/multipart';
import { MASS_REPORT_CSV_COLUMNS, MEDIA_UPLOAD_MAX_BYTES, neutraliseFormula } from '@hablabot/contract';
import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Guards, companyIdOf, userOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { MediaService } from '../media/media.service';
import { originOf } from '../media/media.routes';
import type { ClientLists } from './client-lists';
import { type MassMessagesRepository, toRecipient } from './mass-messages.repository';
import type { MassMessagesService } from './mass-messages.service';
import { route } from '../../platform/route';

const declared = routes.massMessages;

/** One CSV cell: numbers as they are, text guarded against formula injection, quoted when needed. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : neutraliseFormula(String(value));
  return /[",\n\r;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Client lists (`/admin/list-clients`) and mass messages (`/admin/messages-massive`, history, report). */
export function massMessagesRoutes(deps: {
  clientLists: ClientLists;
  massMessages: MassMessagesService;
  massMessagesRepository: MassMessagesRepository;
  media: MediaService;
  guards: Guards;
  publicUrl?: string;
}) {
  const { clientLists, massMessages, guards, media } = deps;
  /** The library file a multipart send brought with it, until the send is answered. */
  const uploadedWith = new WeakMap<FastifyRequest, number>();
  return async (instance: FastifyInstance) => {
    // A send with a file arrives as multipart: its fields become the body (bodyParameters as JSON text),
    // the file goes to the media library and `file` holds its id.
    await instance.register(fastifyMultipart, {
      attachFieldsToBody: 'keyValues',
      limits: {
        fileSize: MEDIA_UPLOAD_MAX_BYTES + 64 * 1024,
        files: 1,
        fields: 20,
        parts: 22,
        fieldSize: 64 * 1024,
      },
      async onFile(this: FastifyRequest, part) {
        if (part.fieldname !== 'file' || !part.filename) {
          part.file.resume();
          return;
        }
        const record = await media.upload(companyIdOf(this), userOf(this).id, part.file, part.filename);
        uploadedWith.set(this, record.id);
        (part as unknown as { value: unknown }).value = record.id;
      },
    });
    // A send that is refused (bad fields, unknown template or list, settings missing …) keeps nothing:
    // the file it brought leaves the library again before the refusal goes out.
    instance.addHook('onSend', async (request, reply, payload) => {
      const mediaId = uploadedWith.get(request);
      if (mediaId === undefined) return payload;
      uploadedWith.delete(request);
      if (reply.statusCode >= 400) {
        await media.remove(companyIdOf(request), mediaId).catch((err) => {
          request.log.warn({ err, mediaId }, 'could not remove the file of a refused mass send');
        });
      }
      return payload;
    });
    const app = instance;
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['mass-messages'];

    // --- client lists ---

    route(app, declared.lists, {
      schema: { tags: ['client-lists'] },
      handler: async (request) => {
        const { page, per_page } = request.query;
        const { data, total } = await clientLists.list(companyIdOf(request), request.query);
        return {
          data,
          pagination: {
            current_page: page,
            per_page,
            total,
            last_page: Math.max(1, Math.ceil(total / per_page)),
          },
        };
      },
    });

    route(app, declared.createList, {
      bodyLimit: 4 * 1024 * 1024,
      schema: { tags: ['client-lists'] },
      handler: async (request, reply) => {
        const data = await clientLists.create(companyIdOf(request), request.body);
        return reply.status(201).send({ message: translate(request.lang, 'list_clients.created'), data });
      },
    });

    route(app, declared.updateList, {
      bodyLimit: 4 * 1024 * 1024,
      schema: { tags: ['client-lists'] },
      handler: async (request) => ({
        message: translate(request.lang, 'list_clients.updated'),
        data: await clientLists.update(companyIdOf(request), request.params.id, request.body),
      }),
    });

    route(app, declared.removeList, {
      schema: { tags: ['client-lists'] },
      handler: async (request) => {
        await clientLists.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'list_clients.deleted') };
      },
    });

    route(app, declared.listMembers, {
      schema: { tags: ['client-lists'] },
      handler: async (request) => {
        const { data, total } = await clientLists.members(
          companyIdOf(request),
          request.params.id,
          request.query,
        );
        return {
          data: { data, current_page: request.query.page, per_page: request.query.per_page, total },
        };
      },
    });

    // --- mass messages ---

    route(app, declared.create, {
      schema: {
        tags,
        summary:
          'Start or schedule a mass send (JSON, or multipart/form-data with the header file in `file`)',
        consumes: ['application/json', 'multipart/form-data'],
      },
      handler: async (request, reply) => {
        const { file, ...input } = request.body;
        const mediaId = typeof file === 'number' ? file : input.media_id;
        const data = await massMessages.create(
          companyIdOf(request),
          userOf(request).id,
          { ...input, media_id: mediaId },
          originOf(request, deps.publicUrl),
        );
        const message =
          data.status === 'scheduled' && data.scheduled_at
            ? translate(request.lang, 'mass.scheduled', {
                at: data.scheduled_at.slice(0, 16).replace('T', ' '),
              })
            : translate(request.lang, 'mass.created');
        return reply.status(201).send({ success: true as const, message, data });
      },
    });

    route(app, declared.history, {
      schema: { tags },
      handler: async (request) => ({ data: await massMessages.history(companyIdOf(request), request.query) }),
    });

    route(app, declared.preview, {
      schema: { tags },
      handler: async (request) => ({ data: await massMessages.preview(companyIdOf(request), request.body) }),
    });

    route(app, declared.settings, {
      schema: { tags },
      handler: async (request) => ({ data: await massMessages.pace(companyIdOf(request)) }),
    });

    route(app, declared.saveSettings, {
      schema: { tags },
      handler: async (request) => ({
        message: translate(request.lang, 'mass.settings_saved'),
        data: await massMessages.setPace(companyIdOf(request), request.body.messages_per_second),
      }),
    });

    route(app, declared.limits, {
      schema: { tags },
      handler: async (request) => {
        const listId = request.query.list_id;
        if (listId !== undefined) await massMessages.ensureList(companyIdOf(request), listId);
        return { data: await massMessages.limits(companyIdOf(request), listId) };
      },
    });

    route(app, declared.get, {
      schema: { tags },
      handler: async (request) => ({ data: await massMessages.get(companyIdOf(request), request.params.id) }),
    });

    route(app, declared.recipients, {
      schema: { tags },
      handler: async (request) => {
        const send = await massMessages.load(companyIdOf(request), request.params.id);
        const { rows, total } = await deps.massMessagesRepository.recipients(send.id, request.query);
        return {
          data: {
            data: rows.map((r) => toRecipient(r, request.lang)),
            current_page: request.query.page,
            per_page: request.query.per_page,
            total,
          },
        };
      },
    });

    route(app, declared.exportRecipients, {
      schema: { tags },
      handler: async (request, reply) => {
        const send = await massMessages.load(companyIdOf(request), request.params.id);
        const lines: string[] = [`\uFEFF${MASS_REPORT_CSV_COLUMNS.join(',')}`];
        for await (const rows of deps.massMessagesRepository.allRecipients(send.id, request.query.status)) {
          for (const row of rows) {
            const r = toRecipient(row, request.lang) as unknown as Record<string, unknown>;
            lines.push(MASS_REPORT_CSV_COLUMNS.map((c) => csvCell(r[c])).join(','));
          }
        }
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="envio-${send.id}.csv"`)
          .send(`${lines.join('\r\n')}\r\n`);
      },
    });

    for (const action of ['pause', 'resume', 'cancel'] as const) {
      const key = { pause: 'mass.paused', resume: 'mass.resumed', cancel: 'mass.cancelled' }[action];
      route(app, declared[action], {
        schema: { tags },
        handler: async (request) => ({
          message: translate(request.lang, key),
          data: await massMessages[action](companyIdOf(request), request.params.id),
        }),
      });
    }

    route(app, declared.resend, {
      schema: { tags },
      handler: async (request) => {
        const { send, requeued } = await massMessages.resend(
          companyIdOf(request),
          request.params.id,
          request.body,
        );
        return {
          message: translate(request.lang, 'mass.requeued', { count: requeued }),
          data: send,
          requeued,
        };
      },
    });
  };
}
