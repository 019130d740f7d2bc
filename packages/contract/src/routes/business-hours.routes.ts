import {
  ZBusinessHours,
  ZBusinessHoursMutationResponse,
  ZBusinessHoursResponse,
} from '../business-hours.schema';
import { businessHoursPaths } from './paths';
import { declareRoutes, errorResponses as errors } from './route';

/** The company's business hours and away message (company admins only; agents 403). */
export const businessHoursRoutes = /* @__PURE__ */ declareRoutes(businessHoursPaths, {
  get: { responses: { 200: ZBusinessHoursResponse, ...errors } },
  save: { body: ZBusinessHours, responses: { 200: ZBusinessHoursMutationResponse, ...errors } },
});
