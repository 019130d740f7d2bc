import { ZIdParams, ZMessageResponse } from '../common.schema';
import {
  ZAssignConversationRequest,
  ZConversationNoteRequest,
  ZConversationResponse,
  ZConversationsQuery,
  ZConversationsResponse,
  ZCreateTeamMemberRequest,
  ZInboxSettingsMutationResponse,
  ZInboxSettingsRequest,
  ZInboxSettingsResponse,
  ZQuickRepliesResponse,
  ZQuickReplyMutationResponse,
  ZQuickReplyRequest,
  ZTeamMemberMutationResponse,
  ZTeamResponse,
  ZUpdateTeamMemberRequest,
} from '../inbox.schema';
import { ZSendMessageResponse } from '../messages.schema';
import { conversationsPaths, inboxSettingsPaths, quickRepliesPaths, teamPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';

/** The company's admins and agents, managed by its admins (agents: 403). */
export const teamRoutes = /* @__PURE__ */ declareRoutes(teamPaths, {
  list: { responses: { 200: ZTeamResponse, ...errors } },
  create: { body: ZCreateTeamMemberRequest, responses: { 201: ZTeamMemberMutationResponse, ...errors } },
  update: {
    params: ZIdParams,
    body: ZUpdateTeamMemberRequest,
    responses: { 200: ZTeamMemberMutationResponse, ...errors },
  },
  remove: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors } },
});

/** Who sees which conversation and how they are handed out (admins only). */
export const inboxSettingsRoutes = /* @__PURE__ */ declareRoutes(inboxSettingsPaths, {
  get: { responses: { 200: ZInboxSettingsResponse, ...errors } },
  save: { body: ZInboxSettingsRequest, responses: { 200: ZInboxSettingsMutationResponse, ...errors } },
});

/** The inbox's conversations by view, their assignee and status, and internal notes (admins and agents). */
export const conversationsRoutes = /* @__PURE__ */ declareRoutes(conversationsPaths, {
  list: { query: ZConversationsQuery, responses: { 200: ZConversationsResponse, ...errors } },
  assign: {
    params: ZIdParams,
    body: ZAssignConversationRequest,
    responses: { 200: ZConversationResponse, ...errors },
  },
  resolve: { params: ZIdParams, responses: { 200: ZConversationResponse, ...errors } },
  reopen: { params: ZIdParams, responses: { 200: ZConversationResponse, ...errors } },
  addNote: {
    params: ZIdParams,
    body: ZConversationNoteRequest,
    responses: { 201: ZSendMessageResponse.pick({ data: true }), ...errors },
  },
});

/** Saved answers the composer offers after '/': admins write, agents read. */
export const quickRepliesRoutes = /* @__PURE__ */ declareRoutes(quickRepliesPaths, {
  list: { responses: { 200: ZQuickRepliesResponse, ...errors } },
  create: { body: ZQuickReplyRequest, responses: { 201: ZQuickReplyMutationResponse, ...errors } },
  update: {
    params: ZIdParams,
    body: ZQuickReplyRequest,
    responses: { 200: ZQuickReplyMutationResponse, ...errors },
  },
  remove: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors } },
});
