import {
  ZClientMutationResponse,
  ZClientRequest,
  ZClientResponse,
  ZClientsQuery,
  ZClientsResponse,
  ZImportClientsRequest,
  ZImportClientsResponse,
  ZMessagesSummaryQuery,
  ZMessagesSummaryResponse,
  ZToggleBotModeRequest,
} from '../clients.schema';
import { ZErrorResponse, ZIdParams, ZIdsRequest, ZMessageResponse } from '../common.schema';
import { clientsPaths, segmentsPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';
import { ZSegmentMutationResponse, ZSegmentRequest, ZSegmentsResponse } from '../clients.schema';

/** The company's WhatsApp contacts ("clients") and their import. */
export const clientsRoutes = /* @__PURE__ */ declareRoutes(clientsPaths, {
  list: { query: ZClientsQuery, responses: { 200: ZClientsResponse, ...errors } },
  messagesSummary: { query: ZMessagesSummaryQuery, responses: { 200: ZMessagesSummaryResponse, ...errors } },
  get: { params: ZIdParams, responses: { 200: ZClientResponse, ...errors } },
  create: { body: ZClientRequest, responses: { 201: ZClientMutationResponse, ...errors } },
  update: { params: ZIdParams, body: ZClientRequest, responses: { 200: ZClientMutationResponse, ...errors } },
  remove: { body: ZIdsRequest, responses: { 200: ZMessageResponse, ...errors } },
  toggleBotMode: {
    params: ZIdParams,
    body: ZToggleBotModeRequest,
    responses: { 200: ZClientMutationResponse, ...errors },
  },
  // 429: another import of the company is running.
  import: {
    body: ZImportClientsRequest,
    responses: { 200: ZImportClientsResponse, ...errors, 429: ZErrorResponse },
  },
});

/** Segments: the company's labels for its clients. */
export const segmentsRoutes = /* @__PURE__ */ declareRoutes(segmentsPaths, {
  list: { responses: { 200: ZSegmentsResponse, ...errors } },
  create: { body: ZSegmentRequest, responses: { 201: ZSegmentMutationResponse, ...errors } },
  update: {
    params: ZIdParams,
    body: ZSegmentRequest,
    responses: { 200: ZSegmentMutationResponse, ...errors },
  },
  remove: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors } },
});
