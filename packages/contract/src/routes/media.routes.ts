import { ZIdParams, ZMessageResponse } from '../common.schema';
import { ZMediaListQuery, ZMediaListResponse, ZMediaUploadResponse } from '../media.schema';
import { mediaPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';

// The upload's body is multipart/form-data (field `file`): the server reads it as a stream, so no body
// schema; its answer is declared.
const upload = { responses: { 201: ZMediaUploadResponse, ...errors } };

/** The company's media library. */
export const mediaRoutes = /* @__PURE__ */ declareRoutes(mediaPaths, {
  upload,
  uploadLegacy: upload,
  list: { query: ZMediaListQuery, responses: { 200: ZMediaListResponse, ...errors } },
  remove: { params: ZIdParams, responses: { 200: ZMessageResponse, ...errors } },
});
