import { DEFAULT_LANGUAGE, MESSAGE_STATUS, type Message, type MessageSender } from '@hablabot/contract';
import { type OutgoingContent, mediaContent, textContent } from '../../integrations/whatsapp/cloud-api';
import { translate } from '../../platform/locale';
import type { TransactionScope } from '../../repositories';
import { AUTOMATIC_TEXT_TYPE } from './message-rows';
import type { OutboundContent, StoredOutgoing } from './send-outcome';

// An outgoing message before it is sent: what the chat stores and what WhatsApp is asked, and its row
// (the outbound service, outbound.service.ts, sends it; scheduled-messages.ts keeps one for later).

/** What WhatsApp is asked, kept with the message so that a retry, a resend or its scheduled time asks the same. */
export type OutboundRequest = { content: OutgoingContent; contextWamid?: string };

/** An outgoing message of one conversation, ready to be stored. */
export interface Outgoing {
  clientId: number;
  sender: MessageSender;
  stored: StoredOutgoing;
  request: OutboundRequest;
  /** The customer's number it goes to. */
  phone: string;
}

/** What the chat stores and what WhatsApp is asked, for free text or a media. */
export function outgoingOf(
  content: OutboundContent,
  input: { automatic?: boolean; authorUserId?: number; sendAt?: string; contextWamid?: string },
): { stored: StoredOutgoing; request: OutboundRequest } {
  const { authorUserId, sendAt, contextWamid } = input;
  if (content.type === 'text')
    return {
      stored: {
        messageType: 'text',
        waType: input.automatic ? AUTOMATIC_TEXT_TYPE : 'text',
        content: content.text,
        authorUserId,
        sendAt,
      },
      request: { content: textContent(content.text), contextWamid },
    };
  const caption = content.type === 'audio' ? undefined : content.caption;
  return {
    stored: {
      messageType: content.type,
      waType: content.type,
      content: caption ?? content.fileName ?? translate(DEFAULT_LANGUAGE, `messaging.label.${content.type}`),
      media: {
        id: content.mediaId ?? null,
        mimeType: content.mimeType ?? null,
        fileName: content.fileName ?? null,
        caption: caption ?? null,
        storageKey: content.storageKey,
      },
      authorUserId,
      sendAt,
    },
    request: {
      content: mediaContent(content.type, {
        link: content.link,
        id: content.mediaId,
        caption,
        filename: content.fileName,
      }),
      contextWamid,
    },
  };
}

/**
 * Stores an outgoing message in its conversation, in the caller's transaction: pending (sent at once) or,
 * with `stored.sendAt`, scheduled (status 5 with its time). Events and the chat list are the caller's.
 */
export async function insertOutgoing(
  tx: TransactionScope,
  companyId: number,
  out: Outgoing,
): Promise<Message> {
  const { clientId, sender, stored, request } = out;
  const inserted = await tx.messagesRepository.insertMessage(companyId, {
    clientId,
    wamid: null,
    sender,
    messageType: stored.messageType,
    waType: stored.waType,
    content: stored.content,
    phone: out.phone,
    contextWamid: request.contextWamid ?? null,
    author: sender === 'admin' ? { type: 'user', userId: stored.authorUserId ?? null } : { type: 'bot' },
    // The message it answers, by the wamid WhatsApp is asked to quote.
    replyToId: request.contextWamid
      ? ((await tx.messagesRepository.idByWamid(companyId, request.contextWamid)) ?? null)
      : null,
    media: stored.media ? { ...stored.media, sha256: null } : undefined,
    status: stored.sendAt ? MESSAGE_STATUS.scheduled : MESSAGE_STATUS.pending,
    createdAt: new Date().toISOString(),
    outboundRequest: JSON.stringify(request),
    scheduledAt: stored.sendAt ?? null,
  });
  if (!inserted) throw new Error('outgoing message not stored');
  // The chat shows its copy of a sent file (GET /admin/files/{id}), as a customer's.
  const storageKey = stored.media?.storageKey;
  return (
    (storageKey
      ? await tx.messagesRepository.setMediaStored(companyId, inserted.id, {
          storageKey,
          mimeType: stored.media?.mimeType ?? 'application/octet-stream',
        })
      : undefined) ?? inserted
  );
}
