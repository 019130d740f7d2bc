import { ZAdminHomeSummaryResponse } from '../admin-home.schema';
import {
  ZBotIdParams,
  ZBotMutationResponse,
  ZBotRequest,
  ZBotTestRequest,
  ZBotTestResponse,
  ZBotsResponse,
  ZInstructionMutationResponse,
  ZInstructionRequest,
  ZInstructionsResponse,
  ZToggleBotStateRequest,
} from '../bots.schema';
import { ZErrorResponse, ZIdParams, ZIdsRequest, ZMessageResponse } from '../common.schema';
import { adminHomePaths, botsPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';

// 429: "Probar bot" may call the AI provider and counts with the settings' connection tests.
const probeErrors = { ...errors, 429: ZErrorResponse };

/** The admin home's figures, for the signed-in admin's company only. */
export const adminHomeRoutes = /* @__PURE__ */ declareRoutes(adminHomePaths, {
  summary: { responses: { 200: ZAdminHomeSummaryResponse, ...errors } },
});

/** The company's bots and their instructions. */
export const botsRoutes = /* @__PURE__ */ declareRoutes(botsPaths, {
  list: { responses: { 200: ZBotsResponse, ...errors } },
  create: { body: ZBotRequest, responses: { 201: ZBotMutationResponse, ...errors } },
  update: { params: ZIdParams, body: ZBotRequest, responses: { 200: ZBotMutationResponse, ...errors } },
  remove: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors } },
  toggleState: {
    params: ZIdParams,
    body: ZToggleBotStateRequest,
    responses: { 200: ZBotMutationResponse, ...errors },
  },
  test: { params: ZIdParams, body: ZBotTestRequest, responses: { 200: ZBotTestResponse, ...probeErrors } },
  listInstructions: { params: ZBotIdParams, responses: { 200: ZInstructionsResponse, ...errors } },
  createInstruction: {
    body: ZInstructionRequest,
    responses: { 201: ZInstructionMutationResponse, ...errors },
  },
  updateInstruction: {
    params: ZIdParams,
    body: ZInstructionRequest,
    responses: { 200: ZInstructionMutationResponse, ...errors },
  },
  removeInstructions: { body: ZIdsRequest, responses: { 200: ZMessageResponse, ...errors } },
});
