import { type MigrationDb, now, timestampType, withId, withTimestamps } from '../migration-helpers';

export async function up(db: MigrationDb): Promise<void> {
  const ts = timestampType(db);

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('companies')).addColumn('name', 'varchar(120)', (c) => c.notNull()),
  ).execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('users'))
      .addColumn('name', 'varchar(120)', (c) => c.notNull())
      .addColumn('email', 'varchar(191)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('set null'))
      .addColumn('language', 'varchar(5)', (c) => c.notNull().defaultTo('es')),
  ).execute();
  await db.schema.createIndex('users_company_id_idx').on('users').column('company_id').execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('roles'))
      .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
      .addColumn('description', 'varchar(255)')
      .addColumn('color', 'varchar(7)', (c) => c.notNull())
      .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('user_roles_role_id_idx').on('user_roles').column('role_id').execute();

  await withId(db, db.schema.createTable('access_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_tokens_user_id_idx').on('access_tokens').column('user_id').execute();

  const at = now();
  await db
    .insertInto('roles')
    .values([
      {
        name: 'super_admin',
        description: 'Superadministrador',
        color: '#7c3aed',
        builtin: 1,
        created_at: at,
        updated_at: at,
      },
      {
        name: 'admin',
        description: 'Administrador de compañía',
        color: '#25d366',
        builtin: 1,
        created_at: at,
        updated_at: at,
      },
      {
        name: 'client',
        description: 'Cliente',
        color: '#0ea5e9',
        builtin: 1,
        created_at: at,
        updated_at: at,
      },
    ])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('access_tokens').execute();
  await db.schema.dropTable('user_roles').execute();
  await db.schema.dropTable('roles').execute();
  await db.schema.dropTable('users').execute();
  await db.schema.dropTable('companies').execute();
}
