import { randomBytes } from 'node:crypto';
import { installGraphMedia } from './graph-media';
import { type FakeMessagesControl, installMessageRoutes } from './graph-messages';
import { installTemplates } from './graph-templates';
import { bearerOf, type FakeResponse, type FakeServer, type RecordedRequest, startFakeServer } from './http';

/**
 * A fake of the WhatsApp Cloud API (Meta's Graph API): the answers and error bodies the real one gives.
 * Errors carry `error.code` (190 bad token, 100 with subcode 33 unknown object …); callers must branch on
 * the code, as with the real service. Sending messages (`/:version/:id/messages`) and its knobs are in
 * graph-messages.ts.
 */

export interface FakePhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
  /** Meta's throughput of the number (absent: not given, as for a number Meta says nothing about). */
  throughput?: { level: 'STANDARD' | 'HIGH' | 'NOT_APPLICABLE' };
  /** Meta's daily limit of business-initiated conversations (TIER_250 … TIER_UNLIMITED). */
  messaging_limit_tier?: string;
}

export interface FakeGraphApi extends FakeServer, FakeMessagesControl {
  /** What settings call facebookMessagesApiUrl: the server's URL and the API version. */
  baseUrl: string;
  /** Access tokens the fake accepts. */
  tokens: Set<string>;
  /** Phone numbers by id; any accepted token may read every one of them. */
  phoneNumbers: Map<string, FakePhoneNumber>;
}

export const GRAPH_API_VERSION = 'v23.0';

/** A Graph API error body, as Meta sends it. */
export function graphError(
  code: number,
  message: string,
  extra: { type?: string; error_subcode?: number; error_data?: unknown } = {},
): { error: Record<string, unknown> } {
  return {
    error: {
      message,
      type: extra.type ?? 'OAuthException',
      code,
      ...(extra.error_subcode === undefined ? {} : { error_subcode: extra.error_subcode }),
      ...(extra.error_data === undefined ? {} : { error_data: extra.error_data }),
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  };
}

/** The real service's answers to the common mistakes. */
export const GRAPH_ERRORS = {
  invalidToken: (): FakeResponse => ({
    status: 401,
    body: graphError(190, 'Invalid OAuth access token - Cannot parse access token'),
  }),
  unknownObject: (id: string): FakeResponse => ({
    status: 400,
    body: graphError(
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      { type: 'GraphMethodException', error_subcode: 33 },
    ),
  }),
  rateLimit: (): FakeResponse => ({
    status: 429,
    body: graphError(130429, '(#130429) Rate limit hit', {
      error_subcode: 2494055,
      error_data: {
        messaging_product: 'whatsapp',
        details:
          'Message failed to send because there were too many messages sent from this phone number in a short period of time',
      },
    }),
  }),
  unknownPath: (path: string): FakeResponse => ({
    status: 400,
    body: graphError(2500, `Unknown path components: ${path}`),
  }),
};

/** Checks the bearer token; the error answer when it is missing or not accepted. */
export function checkGraphToken(
  fake: Pick<FakeGraphApi, 'tokens'>,
  request: RecordedRequest,
): FakeResponse | null {
  const token = bearerOf(request);
  return token && fake.tokens.has(token) ? null : GRAPH_ERRORS.invalidToken();
}

export async function startFakeGraphApi(
  options: { tokens?: string[]; phoneNumbers?: FakePhoneNumber[]; port?: number } = {},
): Promise<FakeGraphApi> {
  const server = await startFakeServer((request) => GRAPH_ERRORS.unknownPath(request.path), options.port);
  const fake = server as FakeGraphApi;
  fake.baseUrl = `${server.url}/${GRAPH_API_VERSION}`;
  fake.tokens = new Set(options.tokens ?? []);
  fake.phoneNumbers = new Map((options.phoneNumbers ?? []).map((p) => [p.id, p]));

  // GET /{version}/{phone_number_id}?fields=…: the fields asked for (all of them by default) and the id.
  fake.route('GET', '/:version/:id', (request, { id }) => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    const phone = fake.phoneNumbers.get(id);
    if (!phone) return GRAPH_ERRORS.unknownObject(id);
    const asked = request.query
      .get('fields')
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const { id: _id, ...fields } = phone;
    const body: Record<string, unknown> = { id };
    for (const [name, value] of Object.entries(fields)) {
      if (!asked || asked.includes(name)) body[name] = value;
    }
    return { status: 200, body };
  });
  installTemplates(fake);

  installGraphMedia(fake);
  installMessageRoutes(fake, (request) => checkGraphToken(fake, request));
  return fake;
}
