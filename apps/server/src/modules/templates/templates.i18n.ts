/** Texts of the WhatsApp message templates (listing, sync, sending one), in both interface languages. */
export const templatesTexts = {
  es: {
    'templates.synced': 'Plantillas sincronizadas con WhatsApp: {count} en total.',
    'templates.sent': 'Mensaje de plantilla enviado.',
    'templates.missing_settings':
      'Para sincronizar las plantillas, guarda en Configuración el token de acceso de WhatsApp y el ID de la cuenta de WhatsApp Business.',
    'templates.missing_token':
      'Para sincronizar las plantillas, guarda en Configuración el token de acceso de WhatsApp.',
    'templates.missing_account':
      'Para sincronizar las plantillas, guarda en Configuración el ID de la cuenta de WhatsApp Business.',
    'templates.setting_required': 'Falta el campo {field} en Configuración.',
    'templates.bad_token':
      'WhatsApp rechazó el token de acceso: no es válido o ha caducado. Crea uno nuevo en Meta y guárdalo en Configuración.',
    'templates.unknown_account':
      'WhatsApp no encuentra la cuenta de WhatsApp Business con el ID {id}, o el token no tiene acceso a ella. Revisa el ID en Configuración.',
    'templates.rate_limited':
      'WhatsApp pide esperar: demasiadas solicitudes. Inténtalo de nuevo en unos minutos.',
    'templates.timeout': '{host} no respondió a tiempo. Inténtalo más tarde.',
    'templates.unreachable':
      'No se pudo conectar con {host}. Revisa la URL de la API de mensajes en Configuración.',
    'templates.address_refused':
      'El servidor no puede llamar a {host}: solo se permiten direcciones públicas por https. Revisa la URL de la API de mensajes en Configuración.',
    'templates.unexpected_answer':
      '{host} respondió (HTTP {status}), pero no como la API de WhatsApp. Revisa la URL de la API de mensajes en Configuración.',
    'templates.too_many_pages':
      'La cuenta tiene más plantillas de las que se pueden leer de una vez ({pages} páginas). No se cambió ninguna.',
    'templates.provider_error': 'WhatsApp respondió con un error: {detail}',
    'templates.provider_error_plain': 'WhatsApp respondió con un error (HTTP {status}).',
    'templates.unknown_template':
      'La plantilla «{name}» no existe. Sincroniza las plantillas e inténtalo de nuevo.',
    'templates.unknown_language': 'La plantilla «{name}» no existe en ese idioma (sí en: {languages}).',
    'templates.language_required':
      'La plantilla «{name}» existe en varios idiomas ({languages}): indica cuál enviar.',
    'templates.not_approved':
      'La plantilla «{name}» no está aprobada por WhatsApp (estado {status}) y no se puede enviar.',
    'templates.parameter_missing': 'Falta el valor del parámetro {n}.',
    'templates.parameter_empty': 'El valor del parámetro {n} no puede estar vacío.',
    'templates.parameter_extra': 'La plantilla no tiene el parámetro {n}.',
    'templates.parameter_format':
      'El valor del parámetro {n} no puede contener saltos de línea, tabuladores ni más de cuatro espacios seguidos.',
    'templates.parameter_key': 'Los parámetros se indican por su número: 1, 2, 3…',
    'templates.button_parameter_key':
      'Los valores de los botones se indican por la posición del botón: 0, 1, 2…',
    'templates.button_parameter_missing': 'Falta el valor del enlace del botón {n}.',
    'templates.button_parameter_format':
      'El valor del enlace del botón {n} no puede contener saltos de línea, tabuladores ni más de cuatro espacios seguidos.',
    'templates.button_parameter_extra': 'El botón {n} de la plantilla no lleva un valor en su enlace.',
    'templates.send_media_required':
      'La plantilla tiene un encabezado con archivo ({kind}): elige uno de la biblioteca de medios.',
    'templates.send_media_unknown': 'El archivo no existe en la biblioteca de medios.',
    'templates.send_media_kind': 'El archivo no es del tipo que pide el encabezado de la plantilla ({kind}).',
    'templates.send_media_extra': 'La plantilla no tiene un encabezado con archivo.',
    'templates.language_format': 'El idioma debe ser un código de WhatsApp, como es o en_US.',
    'templates.phone_mismatch': 'El teléfono no es el del cliente.',
    'templates.client_opted_out':
      'Este cliente se dio de baja de las campañas. Confirma el envío (confirm_opted_out) para enviarle la plantilla de todos modos.',
    'templates.send_not_configured':
      'Para enviar plantillas, guarda en Configuración el token de acceso de WhatsApp y el ID del número de teléfono.',
    'templates.retrying': 'WhatsApp está saturado en este momento; la plantilla se enviará en breve.',
    'templates.send_failed': 'No se pudo enviar la plantilla: {reason}',
    'templates.reason.not_configured':
      'falta el token de acceso o el ID del número de teléfono de WhatsApp en Configuración.',
    'templates.reason.unconfirmed':
      'WhatsApp no respondió a tiempo y puede que la plantilla no haya salido. Comprueba la conversación antes de reenviarla.',
    'templates.reason.other': '{text} (código {code}).',
    'templates.created': 'Plantilla «{name}» enviada a WhatsApp para su revisión.',
    'templates.deleted': 'Plantilla «{name}» eliminada.',
    'templates.not_found': 'La plantilla no existe.',
    'templates.duplicate': 'Ya existe una plantilla con este nombre en este idioma. Elige otro nombre.',
    'templates.name_deleted_recently':
      'Hace poco se eliminó una plantilla con este nombre y WhatsApp aún no permite reutilizarlo. Elige otro nombre.',
    'templates.meta_refused': 'WhatsApp rechazó la plantilla: {detail}',
    'templates.write_not_configured':
      'Para crear o eliminar plantillas, guarda en Configuración el token de acceso de WhatsApp y el ID de la cuenta de WhatsApp Business.',
    'templates.name_required': 'El nombre es obligatorio.',
    'templates.name_too_long': 'El nombre puede tener como máximo 512 caracteres.',
    'templates.name_format': 'El nombre solo puede llevar minúsculas, números y guiones bajos (_).',
    'templates.category': 'La categoría debe ser MARKETING, UTILITY o AUTHENTICATION.',
    'templates.component_type': 'Cada parte debe ser HEADER, BODY, FOOTER o BUTTONS.',
    'templates.component_repeated':
      'Cada parte (encabezado, cuerpo, pie, botones) puede aparecer una sola vez.',
    'templates.header_format': 'El encabezado debe ser texto, imagen, video o documento.',
    'templates.header_required': 'El texto del encabezado es obligatorio.',
    'templates.header_too_long': 'El encabezado puede tener como máximo {max} caracteres.',
    'templates.header_sample_required': 'Elige un archivo de muestra para el encabezado.',
    'templates.header_media_unknown': 'El archivo de muestra ya no está en la biblioteca de medios.',
    'templates.header_media_kind': 'El archivo de muestra no es del tipo que pide el encabezado.',
    'templates.header_media_type':
      'WhatsApp solo acepta como muestra imágenes JPG o PNG, vídeos MP4 y documentos PDF.',
    'templates.body_required': 'El cuerpo del mensaje es obligatorio.',
    'templates.body_too_long': 'El cuerpo puede tener como máximo {max} caracteres.',
    'templates.footer_required': 'El texto del pie es obligatorio.',
    'templates.footer_too_long': 'El pie puede tener como máximo {max} caracteres.',
    'templates.footer_placeholders': 'El pie no puede llevar variables.',
    'templates.placeholders_order': 'Las variables se numeran desde {{1}} sin saltos: falta la {n}.',
    'templates.placeholders_too_many': 'Aquí se admiten como máximo {max} variables.',
    'templates.example_required': 'Falta el ejemplo de la variable {n}.',
    'templates.example_invalid':
      'El ejemplo de la variable {n} no es válido (máximo 200 caracteres, sin caracteres de control).',
    'templates.example_extra': 'Hay más ejemplos que variables.',
    'templates.buttons_empty': 'Añade al menos un botón o quita los botones.',
    'templates.buttons_too_many': 'Se admiten como máximo {max} botones.',
    'templates.url_buttons_too_many': 'Se admiten como máximo {max} botones de enlace.',
    'templates.phone_buttons_too_many': 'Se admite como máximo {max} botón de teléfono.',
    'templates.button_type': 'El botón debe ser de respuesta rápida, enlace o teléfono.',
    'templates.button_text_required': 'El texto del botón es obligatorio.',
    'templates.button_text_too_long': 'El texto del botón puede tener como máximo {max} caracteres.',
    'templates.button_url': 'El enlace debe ser una dirección http(s) completa.',
    'templates.button_url_placeholder': 'El enlace solo puede llevar la variable {{1}} al final.',
    'templates.button_phone': 'El teléfono debe empezar por + y el código de país (8 a 15 dígitos).',
    'fields.templateName': 'plantilla',
    'fields.bodyParameters': 'parámetros',
  },
  en: {
    'templates.synced': 'Templates synced with WhatsApp: {count} in all.',
    'templates.sent': 'Template message sent.',
    'templates.missing_settings':
      'To sync the templates, save the WhatsApp access token and the WhatsApp Business account id in Settings.',
    'templates.missing_token': 'To sync the templates, save the WhatsApp access token in Settings.',
    'templates.missing_account': 'To sync the templates, save the WhatsApp Business account id in Settings.',
    'templates.setting_required': 'The {field} is missing in Settings.',
    'templates.bad_token':
      'WhatsApp refused the access token: it is not valid or has expired. Create a new one in Meta and save it in Settings.',
    'templates.unknown_account':
      'WhatsApp cannot find the WhatsApp Business account with id {id}, or the token has no access to it. Check the id in Settings.',
    'templates.rate_limited': 'WhatsApp asks to wait: too many requests. Try again in a few minutes.',
    'templates.timeout': '{host} did not answer in time. Try again later.',
    'templates.unreachable': 'Could not connect to {host}. Check the messages API URL in Settings.',
    'templates.address_refused':
      'The server may not call {host}: only public addresses over https are allowed. Check the messages API URL in Settings.',
    'templates.unexpected_answer':
      '{host} answered (HTTP {status}), but not like the WhatsApp API. Check the messages API URL in Settings.',
    'templates.too_many_pages':
      'The account has more templates than can be read at once ({pages} pages). Nothing was changed.',
    'templates.provider_error': 'WhatsApp answered with an error: {detail}',
    'templates.provider_error_plain': 'WhatsApp answered with an error (HTTP {status}).',
    'templates.unknown_template': 'The template “{name}” does not exist. Sync the templates and try again.',
    'templates.unknown_language':
      'The template “{name}” does not exist in that language (it does in: {languages}).',
    'templates.language_required':
      'The template “{name}” exists in several languages ({languages}): say which one to send.',
    'templates.not_approved':
      'The template “{name}” is not approved by WhatsApp (status {status}) and cannot be sent.',
    'templates.parameter_missing': 'The value of parameter {n} is missing.',
    'templates.parameter_empty': 'The value of parameter {n} cannot be empty.',
    'templates.parameter_extra': 'The template has no parameter {n}.',
    'templates.parameter_format':
      'The value of parameter {n} cannot hold line breaks, tabs or more than four spaces in a row.',
    'templates.parameter_key': 'Parameters are given by their number: 1, 2, 3…',
    'templates.button_parameter_key': "Button values are given by the button's place: 0, 1, 2…",
    'templates.button_parameter_missing': 'The link value of button {n} is missing.',
    'templates.button_parameter_format':
      'The link value of button {n} cannot hold line breaks, tabs or more than four spaces in a row.',
    'templates.button_parameter_extra': 'Button {n} of the template takes no value in its link.',
    'templates.send_media_required':
      'The template has a file header ({kind}): pick one from the media library.',
    'templates.send_media_unknown': 'The file does not exist in the media library.',
    'templates.send_media_kind': 'The file is not of the kind the template header needs ({kind}).',
    'templates.send_media_extra': 'The template has no file header.',
    'templates.language_format': 'The language must be a WhatsApp code, such as es or en_US.',
    'templates.phone_mismatch': "The phone is not the client's.",
    'templates.client_opted_out':
      'This customer opted out of campaigns. Confirm the send (confirm_opted_out) to send them the template anyway.',
    'templates.send_not_configured':
      'To send templates, save the WhatsApp access token and the phone number id in Settings.',
    'templates.retrying': 'WhatsApp is busy right now; the template will be sent shortly.',
    'templates.send_failed': 'The template could not be sent: {reason}',
    'templates.reason.not_configured': 'the WhatsApp access token or phone number id is missing in Settings.',
    'templates.reason.unconfirmed':
      'WhatsApp did not answer in time and the template may not have gone out. Check the conversation before sending it again.',
    'templates.reason.other': '{text} (code {code}).',
    'templates.created': 'Template “{name}” sent to WhatsApp for review.',
    'templates.deleted': 'Template “{name}” deleted.',
    'templates.not_found': 'The template does not exist.',
    'templates.duplicate': 'A template with this name already exists in this language. Choose another name.',
    'templates.name_deleted_recently':
      'A template with this name was deleted recently and WhatsApp does not let the name be used yet. Choose another name.',
    'templates.meta_refused': 'WhatsApp refused the template: {detail}',
    'templates.write_not_configured':
      'To create or delete templates, save the WhatsApp access token and the WhatsApp Business account id in Settings.',
    'templates.name_required': 'The name is required.',
    'templates.name_too_long': 'The name may be at most 512 characters long.',
    'templates.name_format': 'The name may only hold lower-case letters, digits and underscores (_).',
    'templates.category': 'The category must be MARKETING, UTILITY or AUTHENTICATION.',
    'templates.component_type': 'Each part must be HEADER, BODY, FOOTER or BUTTONS.',
    'templates.component_repeated': 'Each part (header, body, footer, buttons) may appear once.',
    'templates.header_format': 'The header must be text, an image, a video or a document.',
    'templates.header_required': 'The header text is required.',
    'templates.header_too_long': 'The header may be at most {max} characters long.',
    'templates.header_sample_required': 'Choose a sample file for the header.',
    'templates.header_media_unknown': 'The sample file is no longer in the media library.',
    'templates.header_media_kind': 'The sample file is not of the kind the header needs.',
    'templates.header_media_type':
      'WhatsApp only takes JPG or PNG images, MP4 videos and PDF documents as samples.',
    'templates.body_required': 'The message body is required.',
    'templates.body_too_long': 'The body may be at most {max} characters long.',
    'templates.footer_required': 'The footer text is required.',
    'templates.footer_too_long': 'The footer may be at most {max} characters long.',
    'templates.footer_placeholders': 'The footer cannot hold variables.',
    'templates.placeholders_order': 'Variables are numbered from {{1}} without gaps: {n} is missing.',
    'templates.placeholders_too_many': 'At most {max} variables are allowed here.',
    'templates.example_required': 'The example of variable {n} is missing.',
    'templates.example_invalid':
      'The example of variable {n} is not valid (at most 200 characters, no control characters).',
    'templates.example_extra': 'There are more examples than variables.',
    'templates.buttons_empty': 'Add at least one button or remove the buttons.',
    'templates.buttons_too_many': 'At most {max} buttons are allowed.',
    'templates.url_buttons_too_many': 'At most {max} link buttons are allowed.',
    'templates.phone_buttons_too_many': 'At most {max} phone button is allowed.',
    'templates.button_type': 'A button must be a quick reply, a link or a phone.',
    'templates.button_text_required': 'The button text is required.',
    'templates.button_text_too_long': 'The button text may be at most {max} characters long.',
    'templates.button_url': 'The link must be a full http(s) address.',
    'templates.button_url_placeholder': 'The link may only hold the variable {{1}} at its end.',
    'templates.button_phone': 'The phone must start with + and the country code (8 to 15 digits).',
    'fields.templateName': 'template',
    'fields.bodyParameters': 'parameters',
  },
} as const;
