import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../../test/context';
import { loadConfig } from '../../config/env';
import { migrateToLatest } from '../../db/migrate';
import { createSecretBox } from '../../platform/secrets';
import { resealSecrets } from './reseal-secrets';
import { createSettingsRepository } from './settings.repository';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`changing APP_KEY (${engine})`, () => {
  let test: TestDatabase;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const strangerKey = randomBytes(32);
  const ids: number[] = [];

  beforeAll(async () => {
    test = await createTestDatabase();
    await migrateToLatest(test.database.db, test.schema);
    const at = new Date().toISOString();
    for (const name of ['Uno', 'Dos']) {
      const row = await test.database.db
        .insertInto('companies')
        .values({ name, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const settings = createSettingsRepository(test.database.db);
    const old = createSecretBox(oldKey);
    await settings.upsertSettings(ids[0], {
      whatsapp_api_key_enc: old.encrypt('EAAG-token-uno'),
      openai_api_key_enc: old.encrypt('sk-uno'),
    });
    // Sealed under a key nobody has any more.
    await settings.upsertSettings(ids[1], {
      whatsapp_api_key_enc: createSecretBox(strangerKey).encrypt('EAAG-lost'),
    });
  });
  afterAll(async () => {
    await test.database.destroy();
    await test.cleanup();
  });

  const stored = async (companyId: number) =>
    (await createSettingsRepository(test.database.db).findSettings(companyId))!;

  it('opens secrets sealed under a previous key, and reseals them under the new one', async () => {
    const box = createSecretBox(newKey, [oldKey]);
    const before = await stored(ids[0]);
    expect(box.decrypt(before.whatsapp_api_key_enc!)).toBe('EAAG-token-uno');
    expect(box.openedByCurrentKey(before.whatsapp_api_key_enc!)).toBe(false);

    expect(await resealSecrets(test.database.db, box)).toEqual({ resealed: 2, unreadable: 1 });

    const after = await stored(ids[0]);
    const newOnly = createSecretBox(newKey);
    expect(newOnly.decrypt(after.whatsapp_api_key_enc!)).toBe('EAAG-token-uno');
    expect(newOnly.decrypt(after.openai_api_key_enc!)).toBe('sk-uno');
    expect(() => createSecretBox(oldKey).decrypt(after.whatsapp_api_key_enc!)).toThrow();
    // What no key opens stays as it was, to be typed again.
    const lost = await stored(ids[1]);
    expect(createSecretBox(strangerKey).decrypt(lost.whatsapp_api_key_enc!)).toBe('EAAG-lost');
    // Nothing left to do on the next start.
    expect(await resealSecrets(test.database.db, box)).toEqual({ resealed: 0, unreadable: 1 });
  });

  it('reads APP_KEY_PREVIOUS as a list of keys and refuses anything else', () => {
    const a = oldKey.toString('base64');
    const b = `base64:${strangerKey.toString('base64')}`;
    expect(loadConfig({ APP_KEY_PREVIOUS: `${a}, ${b}` }).previousAppKeys).toEqual([a, b]);
    expect(loadConfig({}).previousAppKeys).toEqual([]);
    expect(() => loadConfig({ APP_KEY_PREVIOUS: 'short' })).toThrow(/APP_KEY_PREVIOUS/);
  });
});
