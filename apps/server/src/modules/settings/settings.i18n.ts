import type { Language } from '@hablabot/contract';

/** Server texts of the settings module (field labels, validation, connection tests), es and en. */
export const settingsTexts: Record<Language, Record<string, string>> = {
  es: {
    'settings.updated': 'Configuración actualizada con éxito.',
    'settings.graph_id_format':
      'El campo {field} solo puede contener dígitos (el identificador que muestra Meta).',
    'settings.hub_token_format':
      'El token de verificación debe tener 32 caracteres (letras, números, - y _). Usa el botón Generar.',
    'settings.wordpress_key_format':
      'El campo {field} debe tener 64 caracteres y empezar por HB-. Usa el botón Generar.',
    'settings.secret_format': 'El campo {field} no puede contener espacios ni caracteres de control.',
    'settings.model_format':
      'El nombre del modelo solo puede contener letras, números y los signos . _ : / @ + - (sin espacios).',
    'settings.replace_and_clear': 'No puedes reemplazar y borrar el campo {field} a la vez.',
    'settings.hub_token_taken': 'Otra compañía ya usa este token de verificación. Genera uno nuevo.',
    'settings.wordpress_key_taken': 'Esta clave API de WordPress ya está en uso. Genera una nueva.',
    'settings.phone_id_taken':
      'Otra compañía ya usa este ID del número de teléfono: un número de WhatsApp pertenece a una sola compañía. Revisa el ID o contacta con soporte.',
    'settings.business_account_taken':
      'Otra compañía ya usa este ID de la cuenta de WhatsApp Business: pertenece a una sola compañía. Revisa el ID o contacta con soporte.',
    'settings.test.missing': 'Para probar la conexión falta: {fields}.',
    'settings.test.secret_unreadable':
      'El valor guardado de {field} no se puede leer (la clave APP_KEY del servidor cambió). Escríbelo de nuevo y pulsa Actualizar.',
    'settings.test.unknown_value': 'desconocido',
    'settings.test.whatsapp_ok': 'Conexión correcta con WhatsApp: {name} ({phone}), calidad {quality}.',
    'settings.test.bad_token_whatsapp':
      'WhatsApp rechazó el token de acceso: no es válido o ha caducado. Crea uno nuevo en Meta y guárdalo aquí.',
    'settings.test.unknown_phone_id':
      'WhatsApp no encuentra el número de teléfono con el ID {id}, o el token no tiene acceso a él. Revisa el ID del número de teléfono.',
    'settings.test.unexpected_whatsapp':
      '{host} respondió (HTTP {status}), pero no como la API de WhatsApp. Revisa la URL de la API de mensajes.',
    'settings.test.openai_ok': 'Conexión correcta con OpenAI: el modelo {model} respondió.',
    'settings.test.bad_token_openai': 'El proveedor rechazó la clave API: no es válida o fue revocada.',
    'settings.test.unknown_model':
      'El proveedor no reconoce el modelo «{model}»: no existe, está retirado o tu clave no tiene acceso. Elige otro modelo o escribe su nombre.',
    'settings.test.no_quota': 'La cuenta del proveedor no tiene saldo o cuota disponible.',
    'settings.test.unexpected_openai':
      '{host} respondió (HTTP {status}), pero no como una API de chat compatible con OpenAI. Revisa el endpoint.',
    'settings.test.unreachable':
      'No se pudo conectar con {host}: el servidor no existe o no acepta conexiones. Revisa la URL.',
    'settings.test.timeout':
      '{host} no respondió a tiempo (esperamos {seconds} s). Inténtalo más tarde o revisa la URL.',
    'settings.test.rate_limited':
      'El proveedor pide esperar: demasiadas solicitudes. Inténtalo de nuevo en unos minutos.',
    'settings.test.address_refused':
      'El servidor no puede llamar a {host}: solo se permiten direcciones públicas por https. Revisa la URL.',
    'settings.test.secret_required':
      '{host} no es la dirección guardada: para probarla, escribe otra vez el campo «{field}». El valor guardado solo se envía a la dirección guardada.',
    'settings.test.provider_error_plain': 'El proveedor respondió con un error (HTTP {status}).',
    'settings.quality.GREEN': 'alta (verde)',
    'settings.quality.YELLOW': 'media (amarilla)',
    'settings.quality.RED': 'baja (roja)',
    'settings.quality.UNKNOWN': 'sin calificar',
    'fields.whatsAppApiKey': 'token de acceso de WhatsApp',
    'fields.whatsAppPhoneId': 'ID del número de teléfono',
    'fields.whatsAppBusinessAccountId': 'ID de la cuenta de WhatsApp Business',
    'fields.whatsAppAppSecret': 'clave secreta de la app',
    'fields.facebookMessagesApiUrl': 'URL de la API de mensajes',
    'fields.hub_verify_token': 'token de verificación',
    'fields.wordpress_api_key': 'clave API de WordPress',
    'fields.wordpress_secret_key': 'clave secreta de WordPress',
    'fields.openaiApiKey': 'clave API de OpenAI',
    'fields.openaiModel': 'modelo',
    'fields.openaiChatEndpoint': 'endpoint de chat',
    'fields.clear': 'campos a borrar',
    'fields.field': 'campo',
  },
  en: {
    'settings.updated': 'Settings updated successfully.',
    'settings.graph_id_format': 'The {field} field may only contain digits (the id Meta shows).',
    'settings.hub_token_format':
      'The verify token must have 32 characters (letters, digits, - and _). Use the Generate button.',
    'settings.wordpress_key_format':
      'The {field} field must have 64 characters and start with HB-. Use the Generate button.',
    'settings.secret_format': 'The {field} field may not contain spaces or control characters.',
    'settings.model_format':
      'The model name may only contain letters, digits and the signs . _ : / @ + - (no spaces).',
    'settings.replace_and_clear': 'You cannot replace and clear the {field} field at the same time.',
    'settings.hub_token_taken': 'Another company already uses this verify token. Generate a new one.',
    'settings.wordpress_key_taken': 'This WordPress API key is already in use. Generate a new one.',
    'settings.phone_id_taken':
      'Another company already uses this phone number id: a WhatsApp number belongs to one company only. Check the id or contact support.',
    'settings.business_account_taken':
      'Another company already uses this WhatsApp Business account id: it belongs to one company only. Check the id or contact support.',
    'settings.test.missing': 'To test the connection, this is missing: {fields}.',
    'settings.test.secret_unreadable':
      "The stored {field} cannot be read (the server's APP_KEY changed). Type it again and press Update.",
    'settings.test.unknown_value': 'unknown',
    'settings.test.whatsapp_ok': 'Connected to WhatsApp: {name} ({phone}), quality {quality}.',
    'settings.test.bad_token_whatsapp':
      'WhatsApp refused the access token: it is not valid or has expired. Create a new one in Meta and save it here.',
    'settings.test.unknown_phone_id':
      'WhatsApp cannot find the phone number with id {id}, or the token has no access to it. Check the phone number id.',
    'settings.test.unexpected_whatsapp':
      '{host} answered (HTTP {status}), but not like the WhatsApp API. Check the messages API URL.',
    'settings.test.openai_ok': 'Connected to OpenAI: the model {model} answered.',
    'settings.test.bad_token_openai': 'The provider refused the API key: it is not valid or was revoked.',
    'settings.test.unknown_model':
      'The provider does not know the model “{model}”: it does not exist, was retired, or your key has no access to it. Choose another model or type its name.',
    'settings.test.no_quota': "The provider's account has no credit or quota left.",
    'settings.test.unexpected_openai':
      '{host} answered (HTTP {status}), but not like an OpenAI-compatible chat API. Check the endpoint.',
    'settings.test.unreachable':
      'Could not connect to {host}: the server does not exist or does not accept connections. Check the URL.',
    'settings.test.timeout':
      '{host} did not answer in time (we waited {seconds} s). Try again later or check the URL.',
    'settings.test.rate_limited': 'The provider asks to wait: too many requests. Try again in a few minutes.',
    'settings.test.address_refused':
      'The server may not call {host}: only public addresses over https are allowed. Check the URL.',
    'settings.test.secret_required':
      '{host} is not the saved address: type the {field} again to test it. The saved value is only sent to the saved address.',
    'settings.test.provider_error_plain': 'The provider answered with an error (HTTP {status}).',
    'settings.quality.GREEN': 'high (green)',
    'settings.quality.YELLOW': 'medium (yellow)',
    'settings.quality.RED': 'low (red)',
    'settings.quality.UNKNOWN': 'not rated',
    'fields.whatsAppApiKey': 'WhatsApp access token',
    'fields.whatsAppPhoneId': 'phone number id',
    'fields.whatsAppBusinessAccountId': 'WhatsApp Business account id',
    'fields.whatsAppAppSecret': 'app secret',
    'fields.facebookMessagesApiUrl': 'messages API URL',
    'fields.hub_verify_token': 'verify token',
    'fields.wordpress_api_key': 'WordPress API key',
    'fields.wordpress_secret_key': 'WordPress secret key',
    'fields.openaiApiKey': 'OpenAI API key',
    'fields.openaiModel': 'model',
    'fields.openaiChatEndpoint': 'chat endpoint',
    'fields.clear': 'fields to clear',
    'fields.field': 'field',
  },
};
