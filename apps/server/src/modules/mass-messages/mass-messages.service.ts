import {
  type MassMessage,
  type MassMessageInput,
  type MassMessageStatus,
  type MassRecipientStatus,
  type MessageTemplate,
  fillRecipientTokens,
} from '@hablabot/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError, type FieldError, conflict, invalid, notFound } from '../../platform/errors';
import type { FileStorage } from '../../platform/storage';
import type { MediaRepository } from '../media/media.repository';
import {
  bodyText,
  fillPlaceholders,
  parameterProblems,
  placeholdersOf,
  quickReplyComponents,
} from '../templates/template-parameters';
import type { ClientLists } from './client-lists';
import { type MassMessageRow, type MassMessagesRepository, toMassMessage } from './mass-messages.repository';
import type { MassSender } from './mass-sender';
import { massLimitsOf } from './daily-limit';
import { scheduleOf } from './schedule';

const now = () => new Date().toISOString();

const PARAMETER_KEYS = {
  missing: 'templates.parameter_missing',
  empty: 'templates.parameter_empty',
  extra: 'templates.parameter_extra',
  format: 'templates.parameter_format',
} as const;

/** The media kind a template header asks for. */
const HEADER_KINDS: Record<string, 'image' | 'video' | 'document'> = {
  IMAGE: 'image',
  VIDEO: 'video',
  DOCUMENT: 'document',
};

function parseTemplate(row: {
  id: number;
  name: string;
  language: string;
  category: string;
  status: string;
  components: string;
}): MessageTemplate {
  return { ...row, components: JSON.parse(row.components) };
}

/** Mass messages: accepting one (its recipients queued in one statement), the history, the report, control. */
export function createMassMessagesService(deps: {
  db: Kysely<DB>;
  repository: MassMessagesRepository;
  clientLists: ClientLists;
  mediaRepository: Pick<MediaRepository, 'findMedia'>;
  storage: Pick<FileStorage, 'publicUrl'>;
  sender: MassSender;
  settings: {
    credentials(
      companyId: number,
    ): Promise<{ whatsAppApiKey: string | null; whatsAppPhoneId: string | null }>;
  };
}) {
  const { db, repository, clientLists, sender } = deps;

  async function load(companyId: number, id: number): Promise<MassMessageRow> {
    const row = await repository.find(companyId, id);
    if (!row) throw notFound('mass.not_found');
    return row;
  }

  async function withLiveCounts(row: MassMessageRow): Promise<MassMessage> {
    const counts = await repository.countByStatus(row.id);
    return { ...toMassMessage(row), counts };
  }

  async function templateOf(companyId: number, id: number): Promise<MessageTemplate> {
    const row = await db
      .selectFrom('message_templates')
      .select(['id', 'name', 'language', 'category', 'status', 'components'])
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw invalid('message_template_id', 'mass.unknown_template');
    return parseTemplate(row);
  }

  function checkParameters(template: MessageTemplate, given: Record<string, string>) {
    const problems = parameterProblems(placeholdersOf(bodyText(template)), given);
    if (problems.length > 0) {
      const fieldErrors: Record<string, FieldError[]> = {};
      for (const { n, problem } of problems)
        fieldErrors[`bodyParameters.${n}`] = [{ key: PARAMETER_KEYS[problem], params: { n } }];
      throw new AppError(422, PARAMETER_KEYS[problems[0].problem], { n: problems[0].n }, fieldErrors);
    }
  }

  async function transition(
    companyId: number,
    id: number,
    action: 'pause' | 'resume' | 'cancel',
  ): Promise<MassMessage> {
    const row = await load(companyId, id);
    const from: Record<typeof action, MassMessageStatus[]> = {
      pause: ['scheduled', 'queued', 'sending'],
      resume: ['paused'],
      cancel: ['scheduled', 'queued', 'sending', 'paused'],
    };
    if (!from[action].includes(row.status as MassMessageStatus))
      throw new AppError(409, `mass.cannot_${action}`, { status: row.status });
    let next: MassMessageStatus;
    if (action === 'pause') next = 'paused';
    else if (action === 'cancel') next = 'cancelled';
    else next = row.scheduled_at && Date.parse(row.scheduled_at) > Date.now() ? 'scheduled' : 'queued';
    const changed = await db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('mass_messages')
        .set({
          status: next,
          updated_at: now(),
          ...(next === 'cancelled' ? { finished_at: now() } : {}),
        })
        .where('id', '=', id)
        .where('status', 'in', from[action])
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      if (next === 'cancelled')
        await tx
          .updateTable('mass_message_recipients')
          .set({ status: 'cancelled', updated_at: now() })
          .where('mass_message_id', '=', id)
          .where('status', '=', 'queued')
          .execute();
      return true;
    });
    if (!changed) throw new AppError(409, `mass.cannot_${action}`, { status: row.status });
    const updated = await load(companyId, id);
    if (action === 'resume') await sender.schedule(updated);
    await sender.publishProgress(id);
    return withLiveCounts(updated);
  }

  return {
    /**
     * Accepts a send: checks the template (APPROVED, every placeholder given), the list and the header
     * file, then stores the send and one recipient per client of the list in one transaction — the
     * recipients in a single INSERT … SELECT however many there are — and queues the sender's job.
     */
    async create(
      companyId: number,
      userId: number | null,
      input: MassMessageInput,
      origin: string,
    ): Promise<MassMessage> {
      const template = await templateOf(companyId, input.message_template_id);
      if (template.status !== 'APPROVED')
        throw invalid('message_template_id', 'mass.template_not_approved', {
          name: template.name,
          status: template.status,
        });
      const given = Object.fromEntries(
        Object.entries(input.bodyParameters).map(([k, v]) => [k, v]),
      ) as Record<string, string>;
      checkParameters(template, given);
      const list = await clientLists.find(companyId, input.list_id);
      if (!list) throw invalid('list_id', 'mass.unknown_list');

      let header: string | null = null;
      const headerPart = template.components.find((c) => c.type === 'HEADER');
      const kind = headerPart?.format ? HEADER_KINDS[headerPart.format.toUpperCase()] : undefined;
      let mediaId: number | null = null;
      if (kind) {
        if (!input.media_id) throw invalid('file', 'mass.media_required');
        const media = await deps.mediaRepository.findMedia(companyId, input.media_id);
        if (!media) throw invalid('media_id', 'mass.unknown_media');
        if (media.kind !== kind) throw invalid('file', 'mass.media_kind', { kind });
        const link = new URL(deps.storage.publicUrl(media.storage_key), origin).toString();
        const ref: Record<string, string> = { link };
        if (kind === 'document') ref.filename = media.file_name;
        header = JSON.stringify({ type: 'header', parameters: [{ type: kind, [kind]: ref }] });
        mediaId = media.id;
      }
      const scheduledAt = scheduleOf(input);
      // Settings first: a send that cannot go out is refused here rather than failing every recipient.
      const credentials = await deps.settings.credentials(companyId);
      const absent = (['whatsAppApiKey', 'whatsAppPhoneId'] as const).filter((field) => !credentials[field]);
      if (absent.length > 0) {
        const fieldErrors: Record<string, FieldError[]> = {};
        for (const field of absent) fieldErrors[field] = ['templates.setting_required'];
        throw new AppError(422, 'templates.send_not_configured', undefined, fieldErrors);
      }
      const status: MassMessageStatus =
        scheduledAt && scheduledAt.getTime() > Date.now() ? 'scheduled' : 'queued';
      // The number's daily limit: over it, only with the admin's consent (then the sender stops at it).
      const limits = await massLimitsOf(db, companyId, list.id);
      if (limits.over_limit && !input.accept_tier_overflow)
        throw invalid('accept_tier_overflow', 'mass.over_daily_limit', {
          recipients: limits.recipients,
          contacted: limits.contacted_today,
          limit: limits.daily_limit ?? 0,
        });
      const pace = limits.messages_per_second;
      const body = bodyText(template) ?? '';

      const id = await repository.insertWithRecipients(
        {
          company_id: companyId,
          name: input.name,
          status,
          list_id: list.id,
          list_name: list.name,
          template_id: template.id,
          template_name: template.name,
          template_language: template.language,
          template_body: body,
          body_parameters: JSON.stringify(given),
          header,
          buttons: quickReplyComponents(template).length
            ? JSON.stringify(quickReplyComponents(template))
            : null,
          media_id: mediaId,
          message: fillPlaceholders(body, given),
          messages_per_second: pace,
          retry_capped: input.retry_capped ? 1 : 0,
          scheduled_at: scheduledAt ? scheduledAt.toISOString() : null,
          created_by: userId,
        },
        list.id,
      );
      if (id === undefined) throw invalid('list_id', 'mass.empty_list');
      const row = await load(companyId, id);
      await sender.schedule(row);
      await sender.publishProgress(id);
      return toMassMessage(row);
    },

    async history(
      companyId: number,
      query: { page: number; per_page: number; status?: string; search?: string },
    ) {
      const { rows, total } = await repository.history(companyId, query);
      return {
        data: rows.map(toMassMessage),
        current_page: query.page,
        per_page: query.per_page,
        total,
      };
    },

    async get(companyId: number, id: number): Promise<MassMessage> {
      return withLiveCounts(await load(companyId, id));
    },

    /** Ensures the send is the company's (404 otherwise) and gives its row. */
    load,

    pause: (companyId: number, id: number) => transition(companyId, id, 'pause'),
    resume: (companyId: number, id: number) => transition(companyId, id, 'resume'),
    cancel: (companyId: number, id: number) => transition(companyId, id, 'cancel'),

    /**
     * Sends again, on purpose, recipients that are `unknown` (or `failed`): they go back to `queued`
     * and the send runs again. How many were queued.
     */
    async resend(
      companyId: number,
      id: number,
      input: { recipient_ids?: number[]; statuses: ('unknown' | 'failed')[] },
    ): Promise<{ send: MassMessage; requeued: number }> {
      const row = await load(companyId, id);
      if (row.status === 'cancelled') throw new AppError(409, 'mass.cannot_resend', { status: row.status });
      const requeued = await db.transaction().execute(async (tx) => {
        let q = tx
          .updateTable('mass_message_recipients')
          .set({
            status: 'queued',
            not_before: null,
            error_code: null,
            error_message: null,
            attempts: 0,
            updated_at: now(),
          })
          .where('mass_message_id', '=', id)
          .where('status', 'in', input.statuses as MassRecipientStatus[]);
        if (input.recipient_ids?.length) q = q.where('id', 'in', input.recipient_ids);
        const result = await q.executeTakeFirst();
        const n = Number(result.numUpdatedRows);
        if (n > 0 && (row.status === 'completed' || row.status === 'sending'))
          await tx
            .updateTable('mass_messages')
            .set({
              status: row.status === 'completed' ? 'queued' : row.status,
              finished_at: null,
              updated_at: now(),
            })
            .where('id', '=', id)
            .execute();
        return n;
      });
      const updated = await load(companyId, id);
      if (requeued > 0 && updated.status !== 'paused') await sender.schedule(updated);
      await sender.publishProgress(id);
      return { send: await withLiveCounts(updated), requeued };
    },

    /** The text one recipient would get: `client_id` (a client of the company) or the list's first. */
    async preview(
      companyId: number,
      input: {
        message_template_id: number;
        list_id?: number;
        client_id?: number;
        bodyParameters: Record<string, string>;
      },
    ) {
      const template = await templateOf(companyId, input.message_template_id);
      let q = db
        .selectFrom('clients')
        .select([
          'clients.id',
          'clients.name',
          'clients.last_names',
          'clients.whatsapp_cellphone',
          'clients.email',
        ])
        .where('clients.company_id', '=', companyId);
      if (input.client_id) q = q.where('clients.id', '=', input.client_id);
      else if (input.list_id) {
        if (!(await clientLists.find(companyId, input.list_id)))
          throw invalid('list_id', 'mass.unknown_list');
        q = q
          .innerJoin('client_list_members', 'client_list_members.client_id', 'clients.id')
          .where('client_list_members.list_id', '=', input.list_id);
      }
      const client = (await q.orderBy('clients.id').limit(1).executeTakeFirst()) ?? null;
      if (input.client_id && !client) throw invalid('client_id', 'clients.not_found');
      const values = Object.fromEntries(
        Object.entries(input.bodyParameters).map(([k, v]) => [
          k,
          client
            ? fillRecipientTokens(v, {
                name: client.name,
                last_names: client.last_names,
                whatsapp_cellphone: client.whatsapp_cellphone,
                email: client.email,
              })
            : v,
        ]),
      );
      return { client, text: fillPlaceholders(bodyText(template) ?? '', values) };
    },

    /** 422 on `list_id` unless the list is the company's. */
    async ensureList(companyId: number, listId: number) {
      if (!(await clientLists.find(companyId, listId))) throw invalid('list_id', 'mass.unknown_list');
    },

    /** The numbers the send form shows before a send to the list (see massLimitsOf). */
    limits: (companyId: number, listId: number | undefined) => massLimitsOf(db, companyId, listId),

    async pace(companyId: number) {
      return { messages_per_second: await repository.pace(companyId) };
    },

    async setPace(companyId: number, perSecond: number) {
      await repository.setPace(companyId, perSecond);
      return { messages_per_second: perSecond };
    },

    /** 409 helper for the routes. */
    conflict,
  };
}

export type MassMessagesService = ReturnType<typeof createMassMessagesService>;
