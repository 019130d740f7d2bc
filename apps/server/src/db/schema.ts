import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps are ISO 8601 strings in UTC on both engines (see database.ts for PostgreSQL's parser). */
type Timestamp = string;

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  company_id: number | null;
  language: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  color: string;
  builtin: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface AccessTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp;
}

export interface SegmentsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** The name folded (lower case, no accents): unique per company. */
  name_key: string;
  color: string;
  rules: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  last_names: Generated<string>;
  /** Digits only, country code included. */
  whatsapp_cellphone: string;
  email: string | null;
  avatar: string | null;
  projects: string | null;
  mode_bot: Generated<number>;
  last_message_content: string | null;
  last_message_date: Timestamp | null;
  unread_messages_count: Generated<number>;
  wa_user_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientSegmentsTable {
  client_id: number;
  segment_id: number;
}

export interface MediaTable {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  /** The name the file was uploaded with (cleaned), for display and search. */
  file_name: string;
  /** file_name folded (lower case, no accents). */
  name_key: string;
  /** Where the bytes are in file storage (a random name). */
  storage_key: string;
  mime_type: string;
  kind: string;
  /** Bytes; bigint on PostgreSQL, which pg returns as text unless cast. */
  size: number | string;
  sha256: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  companies: CompaniesTable;
  users: UsersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  access_tokens: AccessTokensTable;
  segments: SegmentsTable;
  clients: ClientsTable;
  client_segments: ClientSegmentsTable;
  media: MediaTable;
}

export type CompanyRow = Selectable<CompaniesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RoleRow = Selectable<RolesTable>;
export type AccessTokenRow = Selectable<AccessTokensTable>;
export type SegmentRow = Selectable<SegmentsTable>;
export type ClientRow = Selectable<ClientsTable>;
export type MediaRow = Selectable<MediaTable>;
