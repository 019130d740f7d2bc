// Plain values both apps share, with no zod in them: the web app's first screen imports these without
// pulling the schema library into its initial JavaScript.

/** Interface languages; `es` is the default and the fallback. */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The built-in roles; every other role has no area of its own. `agent`: a person of a company's team who
 * only answers chats (the admin layout shows them 'Chats' and 'Mi cuenta').
 */
export const ROLE_NAMES = ['super_admin', 'admin', 'client', 'agent'] as const;
export type BuiltinRoleName = (typeof ROLE_NAMES)[number];

/** Where each built-in role lands after sign-in. */
export const ROLE_LANDINGS: Readonly<Record<BuiltinRoleName, string>> = {
  super_admin: '/super-admin',
  admin: '/admin',
  client: '/client',
  agent: '/admin/chat',
};

export function isBuiltinRoleName(value: unknown): value is BuiltinRoleName {
  return typeof value === 'string' && (ROLE_NAMES as readonly string[]).includes(value);
}

/** The segment form's default colour, and the chip colour when a segment has none. */
export const DEFAULT_SEGMENT_COLOR = '#7300ff';
export const SEGMENT_CHIP_FALLBACK_COLOR = '#CCCCCC';

/** Passwords: at least PASSWORD_MIN characters and at most PASSWORD_MAX (the other rules are in identity.schema.ts). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** How often the event stream sends a comment line to keep proxies from closing an idle connection. */
export const EVENTS_HEARTBEAT_MS = 15_000;

/** How far ahead a message may be scheduled. */
export const SCHEDULE_MAX_DAYS = 30;
