import type { Language } from '@hablabot/contract';

/** Texts of sign-in, registration and the language switch. */
export const authTexts = {
  es: {
    'auth.login_ok': 'Inicio de sesión exitoso.',
    'auth.invalid_credentials': 'Credenciales inválidas',
    'auth.logout_ok': 'Sesión cerrada correctamente.',
    'auth.register_ok': 'Registro completado. Ya puedes iniciar sesión.',
    'auth.too_many_attempts':
      'Demasiados intentos de inicio de sesión. Inténtalo de nuevo en {seconds} segundos.',
    'auth.too_many_attempts_one':
      'Demasiados intentos de inicio de sesión. Inténtalo de nuevo en {seconds} segundo.',
    'auth.too_many_registrations':
      'Demasiados registros en poco tiempo. Inténtalo de nuevo en {seconds} segundos.',
    'auth.too_many_registrations_one':
      'Demasiados registros en poco tiempo. Inténtalo de nuevo en {seconds} segundo.',
    'language.updated': 'Language updated successfully.',
    'language.temporary': 'Language set temporarily.',
    'account.updated': 'Tu cuenta se actualizó con éxito.',
    'account.password_changed':
      'Tu cuenta se actualizó con éxito. Se cerraron las demás sesiones abiertas con tu usuario.',
    'auth.current_password_wrong': 'La contraseña actual no es correcta.',
    'auth.too_many_password_checks':
      'Demasiados intentos con la contraseña actual. Inténtalo de nuevo en {seconds} segundos.',
    'auth.too_many_password_checks_one':
      'Demasiados intentos con la contraseña actual. Inténtalo de nuevo en {seconds} segundo.',
    'fields.current_password': 'contraseña actual',
  },
  en: {
    'auth.login_ok': 'Signed in successfully.',
    'auth.invalid_credentials': 'Invalid credentials',
    'auth.logout_ok': 'Signed out successfully.',
    'auth.register_ok': 'Registration complete. You can now sign in.',
    'auth.too_many_attempts': 'Too many sign-in attempts. Try again in {seconds} seconds.',
    'auth.too_many_attempts_one': 'Too many sign-in attempts. Try again in {seconds} second.',
    'auth.too_many_registrations': 'Too many registrations in a short time. Try again in {seconds} seconds.',
    'auth.too_many_registrations_one':
      'Too many registrations in a short time. Try again in {seconds} second.',
    'language.updated': 'Language updated successfully.',
    'language.temporary': 'Language set temporarily.',
    'account.updated': 'Your account was updated successfully.',
    'account.password_changed':
      'Your account was updated successfully. Your other open sessions were signed out.',
    'auth.current_password_wrong': 'The current password is not correct.',
    'auth.too_many_password_checks':
      'Too many attempts with the current password. Try again in {seconds} seconds.',
    'auth.too_many_password_checks_one':
      'Too many attempts with the current password. Try again in {seconds} second.',
    'fields.current_password': 'current password',
  },
} as const satisfies Record<Language, Record<string, string>>;
