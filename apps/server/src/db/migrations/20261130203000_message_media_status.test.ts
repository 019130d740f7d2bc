import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { migrateTo } from '../migrate';
import { migrations } from './index';

const NAME = '20261130203000_message_media_status';
const names = Object.keys(migrations).sort();
const BEFORE = names[names.indexOf(NAME) - 1]!;
const DAY = 24 * 60 * 60 * 1000;

describe(`migration ${NAME} (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('gives stored customer media its state, leaves other messages alone, and goes back down', async () => {
    const { db } = t.database;
    await migrateTo(db, BEFORE, t.schema);
    const at = new Date().toISOString();
    const company = await db
      .insertInto('companies')
      .values({ name: 'Fotos', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const client = await db
      .insertInto('clients')
      .values({
        company_id: company.id,
        name: 'Ana',
        whatsapp_cellphone: '34600000002',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    let seq = 0;
    const insert = async (row: Record<string, unknown>) =>
      (
        await db
          .insertInto('messages')
          .values({
            company_id: company.id,
            client_id: client.id,
            wamid: `wamid.media.${++seq}`,
            sender_type: 'client',
            message_type: 'image',
            wa_type: 'image',
            content: '📷 Imagen',
            phone: '34600000002',
            media_id: `9000${seq}`,
            status: 3,
            created_at: at,
            updated_at: at,
            ...row,
            // biome-ignore lint/suspicious/noExplicitAny: rows as the schema was before this migration
          } as any)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const stored = await insert({ media_storage_key: 'ab/ab00000000000000000000000000000000.png' });
    const noted = await insert({
      error_message: 'No se pudo descargar el archivo de WhatsApp tras varios intentos.',
    });
    const old = await insert({ created_at: new Date(Date.now() - 8 * DAY).toISOString() });
    const fetching = await insert({});
    const ours = await insert({
      sender_type: 'admin',
      media_storage_key: 'cd/cd00000000000000000000000000000000.png',
    });
    const text = await insert({ message_type: 'text', wa_type: 'text', content: 'Hola', media_id: null });

    await migrateTo(db, NAME, t.schema);
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'media_status', 'media_attempts'])
      .orderBy('id')
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r.media_status]));
    expect(byId.get(stored)).toBe('ready');
    expect(byId.get(noted)).toBe('failed');
    expect(byId.get(old)).toBe('failed');
    // Still being fetched by its job: pending (null reads as pending).
    expect(byId.get(fetching)).toBeNull();
    expect(byId.get(ours)).toBeNull();
    expect(byId.get(text)).toBeNull();
    expect(rows.every((r) => r.media_attempts === 0)).toBe(true);

    await migrateTo(db, BEFORE, t.schema);
    const columns = await db.introspection.getTables();
    // On PostgreSQL every test file has a schema of its own: this file's table, not another's.
    const messages = columns.find((c) => c.name === 'messages' && (c.schema ?? null) === (t.schema ?? null))!;
    expect(messages.columns.map((c) => c.name)).not.toContain('media_status');
    expect(messages.columns.map((c) => c.name)).not.toContain('media_attempts');
  });
});
