import { DEFAULT_LANGUAGE, type Language, type MessageType, cleanText } from '@hablabot/contract';
import type { InboundContent } from '../../integrations/whatsapp/webhook';
import { translate } from '../../platform/locale';

/** How a customer's message is stored: the chat's type, its text, and its media when it has one. */
export interface StoredContent {
  messageType: MessageType;
  content: string;
  media?: {
    id: string | null;
    mimeType: string | null;
    fileName: string | null;
    caption: string | null;
    sha256: string | null;
  };
}

/** Longest text kept from a caption, file name or readable line part sent by WhatsApp. */
const PART_MAX = 1024;
const part = (text: string | null) => (text === null ? null : cleanText(text).slice(0, PART_MAX) || null);

/**
 * Every kind of customer message as the chat stores it, never dropped: text as written; media with its
 * caption (a document's file name when it has none, else a label such as '📷 Imagen'); a pressed
 * button (a template's quick reply, a reply button) as type `button` with its text; a list row as its
 * title; reactions, locations, contacts, orders, notices and types the chat cannot show
 * as one readable line. Lines are written in the product's default language (Spanish), since the row is
 * stored once for every reader.
 */
export function storedContent(content: InboundContent, lang: Language = DEFAULT_LANGUAGE): StoredContent {
  const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
  switch (content.kind) {
    case 'text':
      return { messageType: 'text', content: content.text };
    case 'media': {
      const caption = part(content.caption);
      const fileName = part(content.fileName);
      return {
        // Stickers are small images (webp).
        messageType: content.type === 'sticker' ? 'image' : content.type,
        content: caption ?? fileName ?? t(`messaging.label.${content.type}`),
        media: {
          id: content.mediaId,
          mimeType: content.mimeType,
          fileName,
          caption,
          sha256: content.sha256,
        },
      };
    }
    case 'button':
      // What the customer pressed, shown as a button's answer ('Botón'); its text, else its payload.
      return { messageType: 'button', content: part(content.text) ?? part(content.payload) ?? '' };
    case 'reaction':
      return {
        messageType: 'text',
        content: content.emoji
          ? t('messaging.line.reaction', { emoji: content.emoji })
          : t('messaging.line.reaction_removed'),
      };
    case 'location': {
      const place = [part(content.name), part(content.address)].filter(Boolean).join(', ');
      const known = content.latitude !== null && content.longitude !== null;
      if (!place && !known) return { messageType: 'text', content: t('messaging.line.location_unknown') };
      const coordinates = known
        ? `${place ? ' ' : ''}(${content.latitude}, ${content.longitude}) https://maps.google.com/?q=${content.latitude},${content.longitude}`
        : '';
      return { messageType: 'text', content: t('messaging.line.location', { place, coordinates }) };
    }
    case 'contacts': {
      const contacts = content.contacts
        .map((c) => {
          const name = part(c.name) ?? t('messaging.line.contact_unnamed');
          return c.phones.length ? `${name} (${c.phones.join(', ')})` : name;
        })
        .join('; ');
      return { messageType: 'text', content: t('messaging.line.contacts', { contacts }) };
    }
    case 'order':
      return { messageType: 'text', content: t('messaging.line.order', { count: content.items }) };
    case 'system':
      return {
        messageType: 'text',
        content: content.text
          ? t('messaging.line.system', { text: content.text })
          : t('messaging.line.system_plain'),
      };
    case 'unsupported':
      return {
        messageType: 'text',
        content: content.title
          ? t('messaging.line.unsupported_reason', { type: content.type, reason: content.title })
          : t('messaging.line.unsupported', { type: content.type }),
      };
  }
}
