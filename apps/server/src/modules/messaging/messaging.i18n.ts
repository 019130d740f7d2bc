/** Texts of the chat messages and the WhatsApp webhook, in both interface languages. */
export const messagingTexts = {
  es: {
    'messaging.marked_read': 'Mensajes marcados como leídos.',
    'messaging.sent': 'Mensaje enviado.',
    'messaging.resent': 'Mensaje reenviado.',
    'messaging.send_failed': 'No se pudo enviar el mensaje: {reason}',
    'messaging.send_retrying': 'WhatsApp está saturado en este momento; el mensaje se enviará en breve.',
    'messaging.window_closed': 'La ventana de 24 horas ya se ha cerrado. Usa un mensaje plantilla.',
    'messaging.no_customer_message': 'No hay mensajes del cliente. Usa un mensaje plantilla.',
    'messaging.message_not_found': 'El mensaje no existe.',
    'messaging.reply_not_quotable': 'Ese mensaje no llegó a WhatsApp y no se puede citar.',
    'messaging.reply_not_in_conversation': 'Solo se puede responder a un mensaje de esta conversación.',
    'messaging.unknown_media': 'El archivo no está en la biblioteca de medios.',
    'messaging.not_resendable': 'Solo se puede reenviar un mensaje que no se ha enviado.',
    'messaging.reason.not_configured':
      'falta el token de acceso o el identificador del número de WhatsApp en la configuración.',
    'messaging.reason.unconfirmed':
      'WhatsApp no confirmó el envío y puede que el mensaje haya llegado. Comprueba la conversación antes de reenviarlo.',
    'messaging.reason.other': '{text} (código {code}).',
    'messaging.bad_signature': 'La firma del webhook no es válida.',
    'messaging.invalid_body': 'El cuerpo del webhook no es un JSON válido.',
    'messaging.too_many_entries': 'El webhook trae más de {max} entradas: WhatsApp nunca envía tantas.',
    'messaging.too_many_changes': 'El webhook trae más de {max} cambios: WhatsApp nunca envía tantos.',
    'messaging.too_many_updates':
      'El webhook trae más de {max} mensajes y estados: WhatsApp nunca envía tantos.',
    'messaging.too_many_others':
      'El webhook trae más de {max} contactos y errores: WhatsApp nunca envía tantos.',
    'messaging.label.image': '📷 Imagen',
    'messaging.label.video': '🎥 Vídeo',
    'messaging.label.audio': '🎤 Audio',
    'messaging.label.document': '📄 Documento',
    'messaging.label.sticker': '🏷️ Sticker',
    'messaging.line.reaction': 'Reaccionó con {emoji} a un mensaje',
    'messaging.line.reaction_removed': 'Quitó su reacción a un mensaje',
    'messaging.line.location': '📍 Ubicación: {place}{coordinates}',
    'messaging.line.location_unknown': '📍 Ubicación compartida',
    'messaging.line.contacts': '👤 Contacto compartido: {contacts}',
    'messaging.line.contact_unnamed': 'sin nombre',
    'messaging.line.order': '🛒 Pedido de {count} producto(s)',
    'messaging.line.system': 'Aviso de WhatsApp: {text}',
    'messaging.line.system_plain': 'Aviso de WhatsApp',
    'messaging.line.unsupported': 'Mensaje de un tipo que no se puede mostrar ({type}).',
    'messaging.line.unsupported_reason': 'Mensaje de un tipo que no se puede mostrar ({type}): {reason}.',
    'messaging.media.no_token':
      'No se pudo descargar el archivo: falta el token de WhatsApp en Configuraciones.',
    'messaging.media.bad_token':
      'No se pudo descargar el archivo: WhatsApp rechazó el token. Revísalo en Configuraciones.',
    'messaging.media.gone': 'No se pudo descargar el archivo: WhatsApp ya no lo tiene disponible.',
    'messaging.media.too_large':
      'No se guardó el archivo: pesa más de {limit}, el máximo de WhatsApp para este tipo.',
    'messaging.media.checksum':
      'No se guardó el archivo: su contenido no coincide con la huella SHA-256 que indicó WhatsApp.',
    'messaging.media.unavailable':
      'No se pudo descargar el archivo de WhatsApp: se intentó durante los 7 días que WhatsApp lo guarda.',
    'messaging.media.not_failed':
      'Solo se puede reintentar la descarga de un archivo del cliente que no se pudo descargar.',
    'messaging.media.retrying': 'Descargando el archivo de nuevo.',
    'messaging.media.no_checksum':
      'No se descargó el archivo: WhatsApp no indicó su huella SHA-256, así que no se puede comprobar.',
    'messaging.media.address_refused':
      'No se descargó el archivo: WhatsApp indicó una dirección a la que el servidor no puede llamar.',
    'messaging.bot.failed': 'El bot no pudo responder: {reason}',
    'messaging.bot.no_settings': 'falta la clave de API o el modelo de OpenAI en Configuraciones.',
    'messaging.bot.invalid_api_key':
      'el proveedor de IA rechazó la clave de API. Revísala en Configuraciones.',
    'messaging.bot.model_not_found':
      'el modelo «{model}» no existe o la cuenta no tiene acceso a él. Elige otro modelo en Configuraciones.',
    'messaging.bot.insufficient_quota': 'la cuenta del proveedor de IA no tiene saldo o cuota disponible.',
    'messaging.bot.rate_limited': 'el proveedor de IA siguió limitando las solicitudes tras varios intentos.',
    'messaging.bot.timeout': 'el proveedor de IA no respondió a tiempo tras varios intentos.',
    'messaging.bot.unreachable':
      'no se pudo conectar con el proveedor de IA. Revisa la dirección del endpoint en Configuraciones.',
    'messaging.bot.address_refused':
      'el servidor no puede llamar a la dirección del proveedor de IA (solo direcciones públicas por https). Revísala en Configuraciones.',
    'messaging.bot.bad_response': 'el proveedor de IA dio una respuesta que no se puede leer ({status}).',
    'messaging.bot.provider_error': 'el proveedor de IA respondió con un error ({status}): {detail}',
    'messaging.bot.empty_reply': 'el modelo devolvió una respuesta vacía.',
    'messaging.bot.send_failed': 'no se pudo enviar la respuesta por WhatsApp. {detail}',
    'messaging.bot_failure_not_resendable': 'Este aviso del bot no es un mensaje y no se puede reenviar.',
    'messaging.note_not_resendable': 'Una nota interna no se envía por WhatsApp.',
  },
  en: {
    'messaging.marked_read': 'Messages marked as read.',
    'messaging.sent': 'Message sent.',
    'messaging.resent': 'Message sent again.',
    'messaging.send_failed': 'The message could not be sent: {reason}',
    'messaging.send_retrying': 'WhatsApp is busy right now; the message will be sent shortly.',
    'messaging.window_closed': 'The 24-hour window has closed. Use a template message.',
    'messaging.no_customer_message': 'The client has not written yet. Use a template message.',
    'messaging.message_not_found': 'The message does not exist.',
    'messaging.reply_not_quotable': 'That message never reached WhatsApp and cannot be quoted.',
    'messaging.reply_not_in_conversation': 'You can only reply to a message of this conversation.',
    'messaging.unknown_media': 'The file is not in the media library.',
    'messaging.not_resendable': 'Only a message that was not sent can be sent again.',
    'messaging.reason.not_configured':
      'the WhatsApp access token or phone number id is missing in the settings.',
    'messaging.reason.unconfirmed':
      'WhatsApp did not confirm the send and the message may have arrived. Check the conversation before sending it again.',
    'messaging.reason.other': '{text} (code {code}).',
    'messaging.bad_signature': 'The webhook signature is not valid.',
    'messaging.invalid_body': 'The webhook body is not valid JSON.',
    'messaging.too_many_entries':
      'The webhook holds more than {max} entries: WhatsApp never sends that many.',
    'messaging.too_many_changes':
      'The webhook holds more than {max} changes: WhatsApp never sends that many.',
    'messaging.too_many_updates':
      'The webhook holds more than {max} messages and statuses: WhatsApp never sends that many.',
    'messaging.too_many_others':
      'The webhook holds more than {max} contacts and errors: WhatsApp never sends that many.',
    'messaging.label.image': '📷 Image',
    'messaging.label.video': '🎥 Video',
    'messaging.label.audio': '🎤 Audio',
    'messaging.label.document': '📄 Document',
    'messaging.label.sticker': '🏷️ Sticker',
    'messaging.line.reaction': 'Reacted with {emoji} to a message',
    'messaging.line.reaction_removed': 'Removed their reaction to a message',
    'messaging.line.location': '📍 Location: {place}{coordinates}',
    'messaging.line.location_unknown': '📍 Shared a location',
    'messaging.line.contacts': '👤 Shared contact: {contacts}',
    'messaging.line.contact_unnamed': 'no name',
    'messaging.line.order': '🛒 Order of {count} product(s)',
    'messaging.line.system': 'WhatsApp notice: {text}',
    'messaging.line.system_plain': 'WhatsApp notice',
    'messaging.line.unsupported': 'A message of a type that cannot be shown ({type}).',
    'messaging.line.unsupported_reason': 'A message of a type that cannot be shown ({type}): {reason}.',
    'messaging.media.no_token':
      'The file could not be downloaded: the WhatsApp token is missing in Settings.',
    'messaging.media.bad_token':
      'The file could not be downloaded: WhatsApp rejected the token. Check it in Settings.',
    'messaging.media.gone': 'The file could not be downloaded: WhatsApp no longer has it.',
    'messaging.media.too_large':
      'The file was not saved: it is larger than {limit}, the WhatsApp limit for its type.',
    'messaging.media.checksum':
      'The file was not saved: its content does not match the SHA-256 WhatsApp gave.',
    'messaging.media.unavailable':
      'The file could not be downloaded from WhatsApp: it was tried for the 7 days WhatsApp keeps it.',
    'messaging.media.not_failed': 'Only a customer file that could not be downloaded can be tried again.',
    'messaging.media.retrying': 'Downloading the file again.',
    'messaging.media.no_checksum':
      'The file was not downloaded: WhatsApp gave no SHA-256 fingerprint to check it against.',
    'messaging.media.address_refused':
      'The file was not downloaded: WhatsApp named an address the server may not call.',
    'messaging.bot.failed': 'The bot could not answer: {reason}',
    'messaging.bot.no_settings': 'the OpenAI API key or model is missing in Settings.',
    'messaging.bot.invalid_api_key': 'the AI provider rejected the API key. Check it in Settings.',
    'messaging.bot.model_not_found':
      'the model "{model}" does not exist or the account has no access to it. Choose another model in Settings.',
    'messaging.bot.insufficient_quota': 'the AI provider account has no credit or quota left.',
    'messaging.bot.rate_limited': 'the AI provider kept limiting requests after several attempts.',
    'messaging.bot.timeout': 'the AI provider did not answer in time after several attempts.',
    'messaging.bot.unreachable': 'could not reach the AI provider. Check the endpoint address in Settings.',
    'messaging.bot.address_refused':
      'the server may not call the AI provider address (public addresses over https only). Check it in Settings.',
    'messaging.bot.bad_response': 'the AI provider gave an answer that cannot be read ({status}).',
    'messaging.bot.provider_error': 'the AI provider answered with an error ({status}): {detail}',
    'messaging.bot.empty_reply': 'the model returned an empty answer.',
    'messaging.bot.send_failed': 'the answer could not be sent on WhatsApp. {detail}',
    'messaging.bot_failure_not_resendable': 'This bot notice is not a message and cannot be resent.',
    'messaging.note_not_resendable': 'An internal note is never sent on WhatsApp.',
  },
} as const;
