import type { Language } from '@hablabot/contract';

/** Server texts of the WordPress connection, es and en. */
export const wordpressTexts: Record<Language, Record<string, string>> = {
  es: {
    'wordpress.missing_credentials': 'Faltan las cabeceras X-HablaBot-Key y X-HablaBot-Secret.',
    'wordpress.unauthenticated': 'La clave o el secreto de HablaBot no son válidos.',
    'wordpress.too_many_failures':
      'Demasiados intentos fallidos con claves de WordPress. Inténtalo de nuevo en {seconds} segundos.',
    'wordpress.too_many_failures_one':
      'Demasiados intentos fallidos con claves de WordPress. Inténtalo de nuevo en {seconds} segundo.',
    'wordpress.too_many_writes':
      'Demasiados contactos enviados desde WordPress en un minuto. Inténtalo de nuevo en {seconds} segundos.',
    'wordpress.too_many_writes_one':
      'Demasiados contactos enviados desde WordPress en un minuto. Inténtalo de nuevo en {seconds} segundo.',
    'wordpress.ping_ok': 'Conexión correcta: HablaBot acepta la clave y el secreto.',
    'wordpress.client_created': 'Cliente creado con éxito.',
    'wordpress.client_updated': 'Cliente actualizado con éxito.',
    'wordpress.empty': 'No se recibió ningún dato del contacto.',
  },
  en: {
    'wordpress.missing_credentials': 'The X-HablaBot-Key and X-HablaBot-Secret headers are missing.',
    'wordpress.unauthenticated': 'The HablaBot key or secret is not valid.',
    'wordpress.too_many_failures':
      'Too many failed attempts with WordPress keys. Try again in {seconds} seconds.',
    'wordpress.too_many_failures_one':
      'Too many failed attempts with WordPress keys. Try again in {seconds} second.',
    'wordpress.too_many_writes':
      'Too many contacts sent from WordPress in a minute. Try again in {seconds} seconds.',
    'wordpress.too_many_writes_one':
      'Too many contacts sent from WordPress in a minute. Try again in {seconds} second.',
    'wordpress.ping_ok': 'Connected: HablaBot accepts the key and the secret.',
    'wordpress.client_created': 'Client created successfully.',
    'wordpress.client_updated': 'Client updated successfully.',
    'wordpress.empty': 'No contact data was received.',
  },
};
