/** Texts of scheduled messages ('Programar envío'), in both interface languages. */
export const scheduledMessagesTexts = {
  es: {
    'messaging.scheduled': 'Mensaje programado.',
    'messaging.scheduled_updated': 'Mensaje programado actualizado.',
    'messaging.scheduled_cancelled': 'Mensaje programado cancelado.',
    'messaging.not_scheduled': 'El mensaje ya no está programado: ya se envió o se canceló.',
    'messaging.scheduled_content_fixed':
      'Solo se puede cambiar el texto de un mensaje de texto; de una plantilla o un archivo, solo la hora.',
    'messaging.scheduled_window_closed':
      'No se envió: a la hora programada la ventana de 24 horas ya se había cerrado. Usa un mensaje plantilla.',
    'messaging.send_at_format': 'Indica la fecha y la hora con su zona horaria (ISO 8601).',
    'messaging.send_at_past': 'La fecha y hora deben ser futuras.',
    'messaging.send_at_too_far': 'Solo se puede programar hasta 30 días en adelante.',
    'messaging.send_at_resend': 'Un reenvío no se puede programar.',
  },
  en: {
    'messaging.scheduled': 'Message scheduled.',
    'messaging.scheduled_updated': 'Scheduled message updated.',
    'messaging.scheduled_cancelled': 'Scheduled message cancelled.',
    'messaging.not_scheduled': 'The message is no longer scheduled: it was already sent or cancelled.',
    'messaging.scheduled_content_fixed':
      'Only a text message’s text can be changed; a template’s or a file’s, only its time.',
    'messaging.scheduled_window_closed':
      'Not sent: at the scheduled time the 24-hour window had closed. Use a template message.',
    'messaging.send_at_format': 'Give the date and time with its time zone (ISO 8601).',
    'messaging.send_at_past': 'The date and time must be in the future.',
    'messaging.send_at_too_far': 'A message can be scheduled at most 30 days ahead.',
    'messaging.send_at_resend': 'A resend cannot be scheduled.',
  },
} as const;
