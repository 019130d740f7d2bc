import { z } from 'zod';
import { ZIdParams, ZMessageResponse } from '../common.schema';
import {
  ZClientListMembersQuery,
  ZClientListMembersResponse,
  ZClientListMutationResponse,
  ZClientListRequest,
  ZClientListsQuery,
  ZClientListsResponse,
  ZMassMessageActionResponse,
  ZMassMessageDetailResponse,
  ZMassMessageHistoryQuery,
  ZMassMessageHistoryResponse,
  ZMassMessageRequest,
  ZMassMessageResponse,
  ZMassPreviewRequest,
  ZMassPreviewResponse,
  ZMassRecipientsExportQuery,
  ZMassRecipientsQuery,
  ZMassRecipientsResponse,
  ZMassResendRequest,
  ZMassResendResponse,
  ZMassSettings,
  ZMassSettingsMutationResponse,
  ZMassSettingsResponse,
} from '../mass-messages.schema';
import { ZMassLimitsQuery, ZMassLimitsResponse } from '../mass-limits.schema';
import { massMessagesPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';

/**
 * A send's body as the server reads it: the request, plus `file` when it came as multipart (the server
 * puts the uploaded file's library id there).
 */
const ZMassMessageBody = ZMassMessageRequest.extend({ file: z.unknown().optional() });

const action = { params: ZIdParams, responses: { 200: ZMassMessageActionResponse, ...errors } };

/** Client lists and mass messages: start, history, preview, pace, the number's limits, report (JSON and CSV), pause/resume/cancel, resend. */
export const massMessagesRoutes = /* @__PURE__ */ declareRoutes(massMessagesPaths, {
  lists: { query: ZClientListsQuery, responses: { 200: ZClientListsResponse, ...errors } },
  createList: { body: ZClientListRequest, responses: { 201: ZClientListMutationResponse, ...errors } },
  updateList: {
    params: ZIdParams,
    body: ZClientListRequest,
    responses: { 200: ZClientListMutationResponse, ...errors },
  },
  removeList: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors } },
  listMembers: {
    params: ZIdParams,
    query: ZClientListMembersQuery,
    responses: { 200: ZClientListMembersResponse, ...errors },
  },
  create: { body: ZMassMessageBody, responses: { 201: ZMassMessageResponse, ...errors } },
  history: { query: ZMassMessageHistoryQuery, responses: { 200: ZMassMessageHistoryResponse, ...errors } },
  preview: { body: ZMassPreviewRequest, responses: { 200: ZMassPreviewResponse, ...errors } },
  settings: { responses: { 200: ZMassSettingsResponse, ...errors } },
  saveSettings: { body: ZMassSettings, responses: { 200: ZMassSettingsMutationResponse, ...errors } },
  limits: { query: ZMassLimitsQuery, responses: { 200: ZMassLimitsResponse, ...errors } },
  get: { params: ZIdParams, responses: { 200: ZMassMessageDetailResponse, ...errors } },
  recipients: {
    params: ZIdParams,
    query: ZMassRecipientsQuery,
    responses: { 200: ZMassRecipientsResponse, ...errors },
  },
  // The report as CSV (text/csv): no JSON answer to declare.
  exportRecipients: { params: ZIdParams, query: ZMassRecipientsExportQuery, responses: {} },
  pause: action,
  resume: action,
  cancel: action,
  resend: { params: ZIdParams, body: ZMassResendRequest, responses: { 200: ZMassResendResponse, ...errors } },
});
