/**
 * Our own words for the errors WhatsApp (Meta's Cloud API) gives a message that was not sent or not
 * delivered: what happened and what to do, keyed by Meta's code (see whatsapp-errors.ts).
 */
export const whatsappErrorsTexts = {
  es: {
    'wa_error.100':
      'WhatsApp rechazó el mensaje porque uno de sus datos no es válido (un parámetro que falta o sobra, un archivo o un texto con un formato que no acepta). Revisa el contenido y envía un mensaje nuevo; reenviar el mismo no servirá.',
    'wa_error.190':
      'WhatsApp rechazó el token de acceso: caducó o fue revocado. Un administrador debe poner un token válido en Configuración; después puedes reenviar el mensaje.',
    'wa_error.368':
      'Meta bloqueó temporalmente el número por infringir sus políticas (por ejemplo, muchos bloqueos o reportes de clientes). Revisa la calidad de la cuenta en el Administrador de WhatsApp; mientras dure el bloqueo no se pueden enviar mensajes.',
    'wa_error.130429':
      'Se enviaron demasiados mensajes por segundo desde este número y WhatsApp frenó el envío. Espera un momento y reenvía el mensaje.',
    'wa_error.131000':
      'WhatsApp tuvo un error interno y no envió el mensaje. Suele ser pasajero: reenvíalo en unos minutos.',
    'wa_error.131026':
      'WhatsApp no pudo entregar el mensaje a este número: no tiene WhatsApp, no aceptó los términos más recientes o usa una versión muy antigua de la aplicación. Confirma el número con el cliente por otro medio; reenviar no servirá.',
    'wa_error.131031':
      'Meta bloqueó la cuenta de WhatsApp Business (por ejemplo, por infringir sus políticas o por no poder verificar sus datos). Revisa los avisos en el Administrador de WhatsApp y solicita una revisión; hasta entonces no se pueden enviar mensajes.',
    'wa_error.131042':
      'Hay un problema con el método de pago de la cuenta de WhatsApp Business (tarjeta vencida, límite de crédito, sin método de pago). Corrígelo en el Administrador de WhatsApp y reenvía el mensaje.',
    'wa_error.131045':
      'El número de WhatsApp no está bien registrado (falta el certificado del nombre visible). Completa el registro del número en el Administrador de WhatsApp antes de enviar.',
    'wa_error.131047':
      'Han pasado más de 24 horas desde el último mensaje del cliente, así que WhatsApp solo admite un mensaje plantilla. Envía una plantilla aprobada; reenviar el mismo texto no servirá.',
    'wa_error.131049':
      'Meta decidió no entregar este mensaje de marketing para no saturar al cliente (límite de mensajes de marketing por persona). No es un error de tu cuenta: puedes volver a intentarlo pasadas 24 horas o más.',
    'wa_error.131050':
      'El cliente pidió en WhatsApp dejar de recibir mensajes de marketing de tu empresa. No le envíes más campañas; las respuestas a sus mensajes siguen siendo posibles.',
    'wa_error.131051':
      'WhatsApp no admite este tipo de mensaje. Envía el contenido de otra forma (texto, imagen, vídeo, audio o documento).',
    'wa_error.131052':
      'WhatsApp no pudo descargar el archivo que envió el cliente. Pídele que lo vuelva a enviar.',
    'wa_error.131053':
      'WhatsApp no pudo cargar el archivo del mensaje: el tipo o el tamaño no están admitidos, o el enlace no es público. Revisa el archivo y envía un mensaje nuevo con uno válido.',
    'wa_error.131056':
      'Se enviaron demasiados mensajes seguidos a este mismo cliente y WhatsApp los frenó. Espera unos segundos y reenvía el mensaje.',
    'wa_error.132000':
      'El número de variables enviadas no coincide con las que tiene la plantilla. Sincroniza las plantillas, revisa las variables y envía de nuevo desde el formulario.',
    'wa_error.132001':
      'La plantilla no existe en ese idioma o todavía no está aprobada en WhatsApp. Sincroniza las plantillas y elige una aprobada; reenviar no servirá.',
    'wa_error.132005':
      'Con las variables puestas, el texto de la plantilla supera la longitud máxima que admite WhatsApp. Acorta los valores de las variables y envía de nuevo.',
    'wa_error.132007':
      'El contenido de la plantilla o de sus variables infringe las políticas de formato de WhatsApp (por ejemplo, saltos de línea, tabuladores o más de cuatro espacios seguidos en una variable). Corrige los valores y envía de nuevo.',
    'wa_error.132012':
      'Una variable de la plantilla no tiene el formato esperado (por ejemplo, falta la imagen o el documento del encabezado, o el tipo de valor no coincide). Revisa las variables y envía de nuevo.',
    'wa_error.132015':
      'Meta pausó la plantilla por su baja calidad (muchos clientes la bloquearon o la reportaron). Usa otra plantilla o edita esta y espera su revisión.',
    'wa_error.132016':
      'Meta desactivó la plantilla de forma permanente por su baja calidad. Crea una plantilla nueva y envíala a revisión.',
    'wa_error.133010':
      'El número de teléfono no está registrado en la API de WhatsApp Cloud. Regístralo en el Administrador de WhatsApp (o pide ayuda al soporte) y después reenvía el mensaje.',
    'wa_error.2':
      'El servicio de WhatsApp no estaba disponible en ese momento. Reenvía el mensaje en unos minutos.',
    'wa_error.131057': 'La cuenta de WhatsApp Business está en mantenimiento. Reenvía el mensaje más tarde.',
    'wa_error.unknown':
      'WhatsApp no envió el mensaje y dio un motivo que HablaBot no conoce todavía (mira el código y el título). Puedes reenviarlo; si vuelve a fallar, revisa el mensaje y la configuración de WhatsApp.',
    'wa_error.no_code':
      'El mensaje no se pudo enviar y WhatsApp no dio ningún código. Puedes reenviarlo; si vuelve a fallar, revisa la configuración de WhatsApp.',
    'wa_error.not_configured':
      'No se envió porque falta el token de acceso o el identificador del número de WhatsApp en Configuración. Complétalos y reenvía el mensaje.',
    'wa_error.unconfirmed':
      'WhatsApp no confirmó el envío y puede que el mensaje haya llegado. Comprueba la conversación antes de reenviarlo.',
  },
  en: {
    'wa_error.100':
      'WhatsApp refused the message because part of it is not valid (a missing or extra parameter, a file or text in a format it does not accept). Check the content and send a new message; sending the same one again will not help.',
    'wa_error.190':
      'WhatsApp refused the access token: it expired or was revoked. An admin must enter a valid token in Settings; then you can send the message again.',
    'wa_error.368':
      'Meta temporarily blocked the number for breaking its policies (for example, many customers blocking or reporting it). Check the account quality in WhatsApp Manager; no messages can be sent while the block lasts.',
    'wa_error.130429':
      'Too many messages per second were sent from this number and WhatsApp held them back. Wait a moment and send the message again.',
    'wa_error.131000':
      'WhatsApp had an internal error and did not send the message. It is usually brief: send it again in a few minutes.',
    'wa_error.131026':
      'WhatsApp could not deliver the message to this number: it has no WhatsApp, has not accepted the latest terms, or uses a very old version of the app. Confirm the number with the client some other way; sending again will not help.',
    'wa_error.131031':
      'Meta locked the WhatsApp Business account (for example, for breaking its policies or because its details could not be verified). Check the notices in WhatsApp Manager and ask for a review; until then no messages can be sent.',
    'wa_error.131042':
      "There is a problem with the WhatsApp Business account's payment method (expired card, credit limit, no payment method). Fix it in WhatsApp Manager and send the message again.",
    'wa_error.131045':
      "The WhatsApp number is not properly registered (its display name certificate is missing). Finish the number's registration in WhatsApp Manager before sending.",
    'wa_error.131047':
      "More than 24 hours have passed since the client's last message, so WhatsApp only accepts a template message. Send an approved template; sending the same text again will not help.",
    'wa_error.131049':
      'Meta chose not to deliver this marketing message so the client is not flooded (the per-person limit of marketing messages). It is not a problem with your account: you can try again after 24 hours or more.',
    'wa_error.131050':
      'The client asked on WhatsApp to stop receiving marketing messages from your business. Do not send them more campaigns; replying to their messages is still possible.',
    'wa_error.131051':
      'WhatsApp does not support this type of message. Send the content another way (text, image, video, audio or document).',
    'wa_error.131052': 'WhatsApp could not download the file the client sent. Ask them to send it again.',
    'wa_error.131053':
      "WhatsApp could not load the message's file: its type or size is not supported, or the link is not public. Check the file and send a new message with a valid one.",
    'wa_error.131056':
      'Too many messages were sent in a row to this same client and WhatsApp held them back. Wait a few seconds and send the message again.',
    'wa_error.132000':
      "The number of values sent does not match the template's variables. Sync the templates, check the variables and send again from the form.",
    'wa_error.132001':
      'The template does not exist in that language or is not approved on WhatsApp yet. Sync the templates and choose an approved one; sending again will not help.',
    'wa_error.132005':
      "With the values filled in, the template's text is longer than WhatsApp allows. Shorten the values and send again.",
    'wa_error.132007':
      "The template's content or values break WhatsApp's format policy (for example, line breaks, tabs or more than four spaces in a row in a value). Fix the values and send again.",
    'wa_error.132012':
      "A template value does not have the expected format (for example, the header's image or document is missing, or the value's type does not match). Check the values and send again.",
    'wa_error.132015':
      'Meta paused the template for low quality (many clients blocked or reported it). Use another template, or edit this one and wait for its review.',
    'wa_error.132016':
      'Meta disabled the template for good because of its low quality. Create a new template and submit it for review.',
    'wa_error.133010':
      'The phone number is not registered on the WhatsApp Cloud API. Register it in WhatsApp Manager (or ask support for help), then send the message again.',
    'wa_error.2':
      'The WhatsApp service was not available at that moment. Send the message again in a few minutes.',
    'wa_error.131057': 'The WhatsApp Business account is under maintenance. Send the message again later.',
    'wa_error.unknown':
      'WhatsApp did not send the message and gave a reason HablaBot does not know yet (see the code and title). You can send it again; if it fails again, check the message and the WhatsApp settings.',
    'wa_error.no_code':
      'The message could not be sent and WhatsApp gave no code. You can send it again; if it fails again, check the WhatsApp settings.',
    'wa_error.not_configured':
      'It was not sent because the WhatsApp access token or phone number id is missing in Settings. Fill them in and send the message again.',
    'wa_error.unconfirmed':
      'WhatsApp did not confirm the send and the message may have arrived. Check the conversation before sending it again.',
  },
} as const;
