import { ZErrorResponse, ZIdParams, ZMessageResponse } from '../common.schema';
import {
  ZClientIdParams,
  ZClientMessagesQuery,
  ZClientMessagesResponse,
  ZMarkAsReadResponse,
  ZMessageDetailResponse,
  ZSendMessageRequest,
  ZScheduledMessageResponse,
  ZSendMessageResponse,
  ZUpdateScheduledMessageRequest,
} from '../messages.schema';
import { ZCreateTemplateRequest } from '../template-create.schema';
import {
  ZCreateTemplateResponse,
  ZSendTemplateMessageRequest,
  ZSendTemplateMessageResponse,
  ZTemplatesResponse,
  ZTemplatesSyncResponse,
} from '../templates.schema';
import { messagesPaths, templatesPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';

/** WhatsApp's refusals and silences: the admin reads what happened, never a bare server error. */
const providerErrors = { 502: ZErrorResponse, 503: ZErrorResponse };

/** The chat: a client's conversation page by page, one message with its history, marking read, sending. */
export const messagesRoutes = /* @__PURE__ */ declareRoutes(messagesPaths, {
  history: {
    params: ZIdParams,
    query: ZClientMessagesQuery,
    responses: { 200: ZClientMessagesResponse, ...errors },
  },
  get: { params: ZIdParams, responses: { 200: ZMessageDetailResponse, ...errors } },
  markAsRead: { params: ZClientIdParams, responses: { 200: ZMarkAsReadResponse, ...errors } },
  send: {
    body: ZSendMessageRequest,
    responses: { 200: ZSendMessageResponse, 201: ZSendMessageResponse, ...errors },
  },
  updateScheduled: {
    params: ZIdParams,
    body: ZUpdateScheduledMessageRequest,
    responses: { 200: ZScheduledMessageResponse, ...errors },
  },
  cancelScheduled: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors } },
  // 200 with the message, its media pending again; 409 when its media has not failed.
  retryMedia: { params: ZIdParams, responses: { 200: ZSendMessageResponse, ...errors } },
  // The file itself (its stored type), no JSON answer.
  file: { params: ZIdParams, responses: {} },
});

/** The company's WhatsApp message templates: the stored list, the sync from WhatsApp, and sending one. */
export const templatesRoutes = /* @__PURE__ */ declareRoutes(templatesPaths, {
  list: { responses: { 200: ZTemplatesResponse, ...errors } },
  sync: { responses: { 200: ZTemplatesSyncResponse, ...errors, ...providerErrors } },
  send: {
    body: ZSendTemplateMessageRequest,
    responses: { 201: ZSendTemplateMessageResponse, ...errors, ...providerErrors },
  },
  // Written in HablaBot, created on Meta (PENDING until its review), deleted on Meta and here.
  create: {
    body: ZCreateTemplateRequest,
    responses: { 201: ZCreateTemplateResponse, ...errors, ...providerErrors },
  },
  remove: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors, ...providerErrors } },
});
