import { ZErrorResponse } from '../common.schema';
import {
  ZConnectionTestResponse,
  ZGenerateKeyRequest,
  ZGenerateKeyResponse,
  ZOpenAiTestRequest,
  ZSettings,
  ZSettingsMutationResponse,
  ZSettingsRequest,
  ZWhatsAppTestRequest,
} from '../settings.schema';
import { settingsPaths } from './paths';
import { declareRoutes, errorResponses } from './route';

// 429: the connection tests call outside services and are rate limited per company.
const errors = { ...errorResponses, 429: ZErrorResponse };

/** The company's settings (company admins only). */
export const settingsRoutes = /* @__PURE__ */ declareRoutes(settingsPaths, {
  get: { responses: { 200: ZSettings, ...errors } },
  save: { body: ZSettingsRequest, responses: { 200: ZSettingsMutationResponse, ...errors } },
  generate: { body: ZGenerateKeyRequest, responses: { 200: ZGenerateKeyResponse, ...errors } },
  testWhatsApp: { body: ZWhatsAppTestRequest, responses: { 200: ZConnectionTestResponse, ...errors } },
  testOpenAi: { body: ZOpenAiTestRequest, responses: { 200: ZConnectionTestResponse, ...errors } },
});
