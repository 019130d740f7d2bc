import type { Executor } from '../src/db/transactions';

/** A recipient of `insertMassSend`: the client (null for a number alone), the name and number it goes to. */
export interface MassRecipientSeed {
  clientId?: number | null;
  name: string;
  phone: string;
  /** 'queued' unless said (an earlier send's: 'delivered', with `sentAt`). */
  status?: string;
  sentAt?: string;
}

/**
 * A mass send and its recipients written straight to the database, as the service leaves an accepted send
 * (status 'queued', a template 'aviso' in Spanish) or, with `finishedAt`, as the sender leaves a finished
 * one. For the sender's own tests, which run it on a fake clock; the HTTP path is tested through the API.
 * The send's id.
 */
export async function insertMassSend(
  db: Executor,
  companyId: number,
  send: {
    name: string;
    perSecond?: number;
    /** The template's body and the text sent, with its parameters; 'Hola.' without any by default. */
    templateBody?: string;
    bodyParameters?: Record<string, string>;
    message?: string;
    /** When it was created (now by default). */
    at?: string;
    finishedAt?: string;
  },
  recipients: MassRecipientSeed[],
): Promise<number> {
  const at = send.at ?? new Date().toISOString();
  const { id } = await db
    .insertInto('mass_messages')
    .values({
      company_id: companyId,
      name: send.name,
      status: send.finishedAt ? 'completed' : 'queued',
      list_id: null,
      list_name: 'Lista',
      template_id: null,
      template_name: 'aviso',
      template_language: 'es',
      template_body: send.templateBody ?? 'Hola.',
      body_parameters: JSON.stringify(send.bodyParameters ?? {}),
      header: null,
      media_id: null,
      message: send.message ?? 'Hola.',
      messages_per_second: send.perSecond ?? 80,
      counts: '{}',
      created_by: null,
      ...(send.finishedAt ? { finished_at: send.finishedAt } : {}),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < recipients.length; i += 500) {
    await db
      .insertInto('mass_message_recipients')
      .values(
        recipients.slice(i, i + 500).map((r) => ({
          mass_message_id: id,
          company_id: companyId,
          client_id: r.clientId ?? null,
          name: r.name,
          last_names: '',
          phone: r.phone,
          email: null,
          status: r.status ?? 'queued',
          ...(r.sentAt ? { sent_at: r.sentAt } : {}),
          updated_at: at,
        })),
      )
      .execute();
  }
  return id;
}
