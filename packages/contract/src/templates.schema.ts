import { z } from 'zod';
import { requiredText, ZTimestamp, zId, zText } from './common.schema';
import { ZWhatsappCellphone } from './clients.schema';
import { ZMessage, zSendAt } from './messages.schema';

/**
 * WhatsApp message templates: written and approved in the WhatsApp Business Account, copied into our
 * database by a sync, and sent to a client at any time (no 24-hour window). Only APPROVED ones can be
 * sent; PENDING ones are shown but cannot be chosen.
 */

/** The statuses WhatsApp gives a template; a status not listed here is kept as it comes. */
export const TEMPLATE_STATUSES = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
] as const;
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

/** The longest value of one body placeholder we accept (a name, a date, an order number …). */
export const TEMPLATE_PARAMETER_MAX = 1024;

/** A button of a BUTTONS component. */
export const ZTemplateButton = z.object({
  /** QUICK_REPLY, URL, PHONE_NUMBER, COPY_CODE … */
  type: z.string(),
  text: z.string().nullable(),
  url: z.string().nullable(),
  phone_number: z.string().nullable(),
});

/** One part of a template: HEADER, BODY, FOOTER or BUTTONS. */
export const ZTemplateComponent = z.object({
  type: z.string(),
  /** A HEADER's kind: TEXT, IMAGE, VIDEO, DOCUMENT, LOCATION. */
  format: z.string().nullable(),
  /** HEADER (TEXT), BODY and FOOTER text; a BODY's numbered placeholders read {{1}}, {{2}} … */
  text: z.string().nullable(),
  buttons: z.array(ZTemplateButton),
});
export type TemplateComponent = z.infer<typeof ZTemplateComponent>;

export const ZMessageTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  /** WhatsApp's language code: 'es', 'en_US' … */
  language: z.string(),
  category: z.string(),
  status: z.string(),
  components: z.array(ZTemplateComponent),
  /**
   * Meta's review, sent with every template (optional in the type for copies made before it existed):
   * why Meta rejected, paused or disabled it, its quality rating (GREEN, YELLOW, RED, UNKNOWN) and when
   * our copy last changed (a sync, a status webhook, its creation).
   */
  rejected_reason: z.string().nullable().optional(),
  quality: z.string().nullable().optional(),
  updated_at: ZTimestamp.optional(),
});
export type MessageTemplate = z.infer<typeof ZMessageTemplate>;

/** GET /templates: the company's templates, by name. */
export const ZTemplatesResponse = z.object({ data: z.array(ZMessageTemplate) });
export type TemplatesResponse = z.infer<typeof ZTemplatesResponse>;

/** POST /templates: the template as stored, PENDING until Meta's review answers. */
export const ZCreateTemplateResponse = z.object({ message: z.string(), data: ZMessageTemplate });
export type CreateTemplateResponse = z.infer<typeof ZCreateTemplateResponse>;

/** GET /templates/sync: the templates as they are after the sync. */
export const ZTemplatesSyncResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  data: z.array(ZMessageTemplate),
});
export type TemplatesSyncResponse = z.infer<typeof ZTemplatesSyncResponse>;

/** A placeholder's number as a key of `bodyParameters`: '1', '2' … */
const PLACEHOLDER_KEY = /^[1-9][0-9]{0,2}$/;

/**
 * POST /admin/messages/send-template-message. `bodyParameters` maps each placeholder number of the
 * template's body to its value ({ "1": "Ana" }); the server checks them against the template, so a
 * missing, empty or extra one is refused before anything is sent. `language` picks among templates that
 * share a name. `message` is the text as the screen filled it; the chat keeps the text the server fills
 * in from the template, which is what the customer receives.
 */
export const ZSendTemplateMessageRequest = z.object({
  client_id: zId(),
  /** The client's number as the screen shows it; optional, and refused when it is not the client's. */
  phone: ZWhatsappCellphone.optional(),
  templateName: requiredText(512),
  language: zText({ max: 15 })
    .refine((v) => v === '' || /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/.test(v), {
      message: 'templates.language_format',
    })
    .optional(),
  message: zText({ max: 4096, multiline: true }).optional(),
  /** The client opted out of campaigns and the agent confirms the send (otherwise 409 on this field). */
  confirm_opted_out: z.boolean().optional(),
  bodyParameters: z
    // The text rules of every field: no control or direction-override characters, ends trimmed.
    .record(z.string(), zText({ max: TEMPLATE_PARAMETER_MAX }))
    .superRefine((values, ctx) => {
      for (const key of Object.keys(values)) {
        if (!PLACEHOLDER_KEY.test(key))
          ctx.addIssue({ code: 'custom', path: [key], message: 'templates.parameter_key' });
      }
    })
    .default({}),
  /** Sends it later, at this time (templates go out whatever the 24-hour window): status 5 until then. */
  send_at: zSendAt().optional(),
  /**
   * A file of the company's media library for the template's IMAGE, VIDEO or DOCUMENT header (required
   * for such a template, refused for any other); WhatsApp fetches it by its public link.
   */
  media_id: zId().optional(),
  /**
   * The value of each URL button whose address ends in {{1}}, by the button's place among the template's
   * buttons ({ "1": "pedido/123" }): required for each such button, refused for any other.
   */
  buttonParameters: z
    .record(z.string(), zText({ max: TEMPLATE_PARAMETER_MAX }))
    .superRefine((values, ctx) => {
      for (const key of Object.keys(values)) {
        if (!/^[0-9]$/.test(key))
          ctx.addIssue({ code: 'custom', path: [key], message: 'templates.button_parameter_key' });
      }
    })
    .optional(),
});
export type SendTemplateMessageRequest = z.input<typeof ZSendTemplateMessageRequest>;
export type SendTemplateMessageInput = z.output<typeof ZSendTemplateMessageRequest>;

export const ZSendTemplateMessageResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZMessage,
});
export type SendTemplateMessageResponse = z.infer<typeof ZSendTemplateMessageResponse>;
