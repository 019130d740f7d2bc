import { ZErrorResponse, ZSuccessResponse, ZValidationErrorResponse } from '../common.schema';
import {
  ZAccountRequest,
  ZAccountResponse,
  ZLanguageSetRequest,
  ZLoginRequest,
  ZLoginResponse,
  ZRegisterRequest,
} from '../identity.schema';
import { authPaths } from './paths';
import { declareRoutes } from './route';

/** Sign-in, registration, sign-out, the signed-in user's account and the UI language. */
export const authRoutes = /* @__PURE__ */ declareRoutes(authPaths, {
  login: {
    body: ZLoginRequest,
    responses: {
      200: ZLoginResponse,
      401: ZErrorResponse,
      422: ZValidationErrorResponse,
      429: ZErrorResponse,
    },
  },
  register: {
    body: ZRegisterRequest,
    responses: { 201: ZSuccessResponse, 422: ZValidationErrorResponse, 429: ZErrorResponse },
  },
  logout: { responses: { 200: ZSuccessResponse, 401: ZErrorResponse } },
  account: {
    body: ZAccountRequest,
    responses: { 200: ZAccountResponse, 401: ZErrorResponse, 422: ZValidationErrorResponse },
  },
  setLanguage: {
    body: ZLanguageSetRequest,
    responses: { 200: ZSuccessResponse, 422: ZValidationErrorResponse },
  },
});
