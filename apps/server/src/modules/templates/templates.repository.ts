import type { MessageTemplate, TemplateComponent } from '@hablabot/contract';
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
}

/** Rows per insert statement: 8 values each, well under SQLite's limit of bound values. */
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
  };
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
                updated_at: eb.ref('excluded.updated_at'),
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
