import type { MessageTemplate, TemplateComponent } from '@hablabot/contract';
import { sql } from 'kysely';
import type { MessageTemplateRow } from '../../db/schema';
import { atomically, type Executor } from '../../db/transactions';

const now = () => new Date().toISOString();

/** A template as a sync writes it. */
export interface TemplateValues {
  meta_id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: TemplateComponent[];
  /** Meta's review as the listing reads it (a sync); absent for a template just created. */
  rejected_reason?: string | null;
  quality?: string | null;
}

/** Rows per insert statement: 10 values each, well under SQLite's limit of bound values. */
const CHUNK = 100;

function parseComponents(json: string): TemplateComponent[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as TemplateComponent[]) : [];
  } catch {
    return [];
  }
}

function toTemplate(row: MessageTemplateRow): MessageTemplate {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    components: parseComponents(row.components),
    rejected_reason: row.rejected_reason ?? null,
    quality: row.quality ?? null,
    updated_at: String(row.updated_at),
  };
}

/** Meta's review of a template as its webhooks report it; an absent field is left as it is. */
export interface TemplateReview {
  status?: string;
  rejected_reason?: string | null;
  quality?: string;
}

const keyOf = (t: { name: string; language: string }) => `${t.language}\u0000${t.name}`;

/** The message_templates rows: a company's templates as the last sync left them, the only SQL of templates. */
export function createTemplatesRepository(db: Executor) {
  return {
    /** The company's templates by name (then language). */
    async listTemplates(companyId: number): Promise<MessageTemplate[]> {
      const rows = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('name')
        .orderBy('language')
        .orderBy('id')
        .execute();
      return rows.map(toTemplate);
    },

    /** The company's templates with this name: one per language. */
    async findTemplatesByName(companyId: number, name: string): Promise<MessageTemplate[]> {
      const rows = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('name', '=', name)
        .orderBy('language')
        .execute();
      return rows.map(toTemplate);
    },

    /** One of the company's templates; undefined when it is not the company's. */
    async findTemplate(companyId: number, id: number): Promise<MessageTemplate | undefined> {
      const row = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toTemplate(row) : undefined;
    },

    /** Meta's id of one of the company's templates (what a deletion on Meta names). */
    async metaIdOf(companyId: number, id: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('message_templates')
        .select('meta_id')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.meta_id;
    },

    /**
     * The company's template Meta names by its id, or (a copy made before we knew its id) by name and
     * language: what a status webhook updates.
     */
    async findByMeta(
      companyId: number,
      meta: { metaId: string; name: string | null; language: string | null },
    ): Promise<MessageTemplate | undefined> {
      const byId = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('meta_id', '=', meta.metaId)
        .executeTakeFirst();
      if (byId || !meta.name || !meta.language) return byId ? toTemplate(byId) : undefined;
      const byName = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('name', '=', meta.name)
        .where('language', '=', meta.language)
        .executeTakeFirst();
      return byName ? toTemplate(byName) : undefined;
    },

    /** Stores a template just created on Meta (or replaces the copy of the same name and language). */
    async insertTemplate(companyId: number, t: TemplateValues): Promise<MessageTemplate> {
      const at = now();
      await db
        .insertInto('message_templates')
        .values({
          company_id: companyId,
          meta_id: t.meta_id,
          name: t.name,
          language: t.language,
          status: t.status,
          category: t.category,
          components: JSON.stringify(t.components),
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc.columns(['company_id', 'name', 'language']).doUpdateSet({
            meta_id: t.meta_id,
            status: t.status,
            category: t.category,
            components: JSON.stringify(t.components),
            rejected_reason: null,
            quality: null,
            updated_at: at,
          }),
        )
        .execute();
      const row = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('name', '=', t.name)
        .where('language', '=', t.language)
        .executeTakeFirstOrThrow();
      return toTemplate(row);
    },

    /** Writes Meta's review of one of the company's templates; whether the row was there. */
    async applyReview(companyId: number, id: number, review: TemplateReview): Promise<boolean> {
      const result = await db
        .updateTable('message_templates')
        .set({
          ...(review.status === undefined ? {} : { status: review.status }),
          ...(review.rejected_reason === undefined ? {} : { rejected_reason: review.rejected_reason }),
          ...(review.quality === undefined ? {} : { quality: review.quality }),
          updated_at: now(),
        })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Deletes one of the company's templates; whether it was there. */
    async deleteTemplate(companyId: number, id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('message_templates')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /**
     * Makes the company's rows the given templates, in one transaction: new ones inserted, known ones
     * (same name and language) updated in place, keeping their ids, and the ones not given deleted. The
     * templates must be unique by name and language. How many rows were deleted.
     */
    async replaceTemplates(companyId: number, templates: TemplateValues[]): Promise<{ deleted: number }> {
      return atomically(db, async (trx) => {
        const at = now();
        for (let i = 0; i < templates.length; i += CHUNK) {
          const rows = templates.slice(i, i + CHUNK).map((t) => ({
            company_id: companyId,
            meta_id: t.meta_id,
            name: t.name,
            language: t.language,
            status: t.status,
            category: t.category,
            components: JSON.stringify(t.components),
            rejected_reason: t.rejected_reason ?? null,
            quality: t.quality ?? null,
            created_at: at,
            updated_at: at,
          }));
          await trx
            .insertInto('message_templates')
            .values(rows)
            .onConflict((oc) =>
              oc.columns(['company_id', 'name', 'language']).doUpdateSet((eb) => ({
                meta_id: eb.ref('excluded.meta_id'),
                status: eb.ref('excluded.status'),
                category: eb.ref('excluded.category'),
                components: eb.ref('excluded.components'),
                // The status webhook's words (its title and description) stay while the status does;
                // Meta's listing only gives the reason's code.
                rejected_reason: sql<string | null>`case when excluded.rejected_reason is null then null
                  when message_templates.status = excluded.status
                  and message_templates.rejected_reason is not null then message_templates.rejected_reason
                  else excluded.rejected_reason end`,
                quality: sql<string | null>`coalesce(excluded.quality, message_templates.quality)`,
                // 'Last update' is when Meta's copy last changed, not when it was last synced.
                updated_at: sql<string>`case when message_templates.status = excluded.status
                  and message_templates.category = excluded.category
                  and message_templates.components = excluded.components
                  and coalesce(message_templates.quality, '') = coalesce(excluded.quality, message_templates.quality, '')
                  and (excluded.rejected_reason is null) = (message_templates.rejected_reason is null)
                  then message_templates.updated_at else excluded.updated_at end`,
              })),
            )
            .execute();
        }
        const kept = new Set(templates.map(keyOf));
        const existing = await trx
          .selectFrom('message_templates')
          .select(['id', 'name', 'language'])
          .where('company_id', '=', companyId)
          .execute();
        const gone = existing.filter((row) => !kept.has(keyOf(row))).map((row) => row.id);
        for (let i = 0; i < gone.length; i += CHUNK) {
          await trx
            .deleteFrom('message_templates')
            .where('company_id', '=', companyId)
            .where('id', 'in', gone.slice(i, i + CHUNK))
            .execute();
        }
        return { deleted: gone.length };
      });
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
