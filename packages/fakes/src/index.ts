/**
 * Fakes of the outside services (WhatsApp Cloud API, OpenAI-compatible chat completions) are real HTTP
 * servers on loopback, so the server talks to them exactly as to the real ones: only the base URL in the
 * settings differs. Each fake is a route table (`startFakeServer`) with the real service's answers and
 * error bodies; tests add or override routes, slow answers down (`delayMs`) or queue failures
 * (`failNext`).
 */
export { listen, type RunningFake } from './listen';
export {
  bearerOf,
  type FakeHandler,
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from './http';
export {
  checkGraphToken,
  type FakeGraphApi,
  type FakePhoneNumber,
  GRAPH_API_VERSION,
  GRAPH_ERRORS,
  graphError,
  startFakeGraphApi,
} from './graph-api';
export {
  type FakeTemplate,
  fakeTemplate,
  TEMPLATES_DEFAULT_LIMIT,
  TEMPLATES_MAX_LIMIT,
  templateSendRefusal,
} from './graph-templates';
export { installTemplateAdmin, type TemplateVerdict } from './graph-template-admin';
export type { FakeUpload } from './graph-uploads';
export {
  type FakeGraphMedia,
  type FakeMediaFault,
  type FakeMediaFile,
  installGraphMedia,
  MEDIA_DOWNLOAD_PATH,
  MEDIA_URL_TTL_MS,
} from './graph-media';
export {
  DEFAULT_FAKE_MODELS,
  FAKE_HANDOFF_MARKER,
  type FakeChatRequest,
  type FakeOpenAi,
  OPENAI_ERRORS,
  openAiError,
  RETIRED_MODELS,
  startFakeOpenAi,
} from './openai';
export {
  type FakeMessagesControl,
  type FakeReadReceipt,
  type FakeSentMessage,
  newWamid,
  SEND_ERRORS,
  type ScriptedFailure,
} from './graph-messages';
export type { StatusTimings } from './graph-statuses';
export {
  buttonReplyMessage,
  type CustomerMessage,
  createWebhookEmitter,
  customerMessagesBody,
  customerTextBody,
  emitterWamid,
  type StatusError,
  type StatusReport,
  signWebhookBody,
  statusesBody,
  type WebhookEmitter,
  type WebhookOrigin,
  webhookEnvelope,
} from './webhook-emitter';
