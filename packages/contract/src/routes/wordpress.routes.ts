import { ZErrorResponse } from '../common.schema';
import {
  ZWordPressClientErrorResponse,
  ZWordPressClientRequest,
  ZWordPressClientResponse,
  ZWordPressPingResponse,
} from '../settings.schema';
import { wordpressPaths } from './paths';
import { declareRoutes } from './route';

const authErrors = { 401: ZErrorResponse, 429: ZErrorResponse };

/** The WordPress inbound API: a connection check, and one contact created or updated as an import row. */
export const wordpressRoutes = /* @__PURE__ */ declareRoutes(wordpressPaths, {
  ping: { responses: { 200: ZWordPressPingResponse, ...authErrors } },
  upsertClient: {
    body: ZWordPressClientRequest,
    responses: {
      200: ZWordPressClientResponse,
      201: ZWordPressClientResponse,
      422: ZWordPressClientErrorResponse,
      ...authErrors,
    },
  },
});
