import { isBuiltinRoleName, type Role } from '@hablabot/contract';
import type { TFunction } from 'i18next';

/**
 * The descriptions the server seeds for the built-in roles, in Spanish, as the API returns them.
 * While a built-in role still carries its seeded description the screen shows it in the screen's
 * language (`superAdmin.roles.builtinDescriptions.<name>`); a description a super admin typed shows
 * as typed. The API's answer stays as it is.
 */
const SEEDED_DESCRIPTIONS: Readonly<Record<string, string>> = {
  super_admin: 'Superadministrador',
  admin: 'Administrador de compañía',
  client: 'Cliente',
  agent: 'Agente',
};

function isSeeded(role: Pick<Role, 'name' | 'builtin' | 'description'>): boolean {
  return role.builtin && role.description !== null && SEEDED_DESCRIPTIONS[role.name] === role.description;
}

/** The description to show for a role: a built-in role's seeded one in the screen's language. */
export function roleDescription(
  role: Pick<Role, 'name' | 'builtin' | 'description'>,
  t: TFunction,
): string | null {
  return isSeeded(role) ? t(`superAdmin.roles.builtinDescriptions.${role.name}`) : role.description;
}

/**
 * The description to save from the role form: when a built-in role's field still holds the shown
 * (translated) seeded description, the seeded text goes back unchanged, so editing only the colour in
 * English does not store an English description.
 */
export function descriptionToSave(
  role: Pick<Role, 'name' | 'builtin' | 'description'> | null,
  typed: string,
  t: TFunction,
): string | null {
  if (role && isSeeded(role) && typed === roleDescription(role, t)) return role.description;
  return typed || null;
}

/** A built-in role's name in the screen's language (`admin` → 'Administrador'); null for other roles. */
export function roleLabel(role: Pick<Role, 'name'>, t: TFunction): string | null {
  return isBuiltinRoleName(role.name) ? t(`superAdmin.roles.builtinNames.${role.name}`) : null;
}

/** What a role is called on screen: a built-in role's localised name beside its id, 'Administrador (admin)'. */
export function roleTitle(role: Pick<Role, 'name'>, t: TFunction): string {
  const label = roleLabel(role, t);
  return label ? `${label} (${role.name})` : role.name;
}
