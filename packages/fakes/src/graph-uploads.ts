import { randomBytes } from 'node:crypto';
import { checkGraphToken, type FakeGraphApi, GRAPH_ERRORS, graphError } from './graph-api';
import type { FakeResponse } from './http';

/**
 * Meta's Resumable Upload API on the fake Graph API, as a template's media sample uses it: `GET
 * /{version}/app` names the token's app, `POST /{version}/{app-id}/uploads?file_name=&file_length=
 * &file_type=` opens a session (`{ id: 'upload:…' }`), and `POST /{version}/upload:…` with `Authorization:
 * OAuth {token}` and `file_offset: 0` takes the bytes and answers the handle (`{ h }`). Finished uploads
 * are kept in `fake.uploads` for tests to look at.
 */

/** A file the fake took through the upload API. */
export interface FakeUpload {
  fileName: string;
  fileType: string;
  /** The bytes as they came. */
  bytes: Buffer;
  /** The handle answered, what a template's `example.header_handle` names. */
  handle: string;
}

declare module './graph-api' {
  interface FakeGraphApi {
    /** The id of the app every accepted token belongs to. */
    appId: string;
    /** Every upload finished, oldest first (cleared by `reset`). */
    uploads: FakeUpload[];
  }
}

/** The file types Meta takes through the upload API. */
const TYPES = ['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4'];

const invalid = (message: string): FakeResponse => ({
  status: 400,
  body: graphError(100, `(#100) ${message}`, { type: 'OAuthException' }),
});

/** Adds the upload API to a fake Graph API (installTemplateAdmin calls it). */
export function installUploads(fake: FakeGraphApi): void {
  fake.appId = '1409027730000001';
  fake.uploads = [];
  const sessions = new Map<string, { fileName: string; fileType: string; fileLength: number }>();
  const reset = fake.reset.bind(fake);
  fake.reset = () => {
    reset();
    fake.uploads.length = 0;
  };

  fake.route('GET', '/:version/app', (request) => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    return {
      status: 200,
      body: {
        id: fake.appId,
        name: 'HablaBot',
        link: `https://www.facebook.com/games/?app_id=${fake.appId}`,
      },
    };
  });

  fake.route('POST', '/:version/:app/uploads', (request, { app }) => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    if (app !== fake.appId) return GRAPH_ERRORS.unknownObject(app);
    const fileName = request.query.get('file_name') ?? '';
    const fileType = request.query.get('file_type') ?? '';
    const fileLength = Number(request.query.get('file_length'));
    if (!fileName) return invalid('The parameter file_name is required');
    if (!TYPES.includes(fileType)) return invalid(`Param file_type must be one of {${TYPES.join(', ')}}`);
    if (!Number.isInteger(fileLength) || fileLength < 1)
      return invalid('Param file_length must be a positive integer');
    const id = `upload:${randomBytes(12).toString('base64url')}`;
    sessions.set(id, { fileName, fileType, fileLength });
    return { status: 200, body: { id } };
  });

  fake.route('POST', '/:version/:upload', (request, { upload }) => {
    if (!upload.startsWith('upload:')) return undefined;
    const auth = String(request.headers.authorization ?? '');
    const token = /^OAuth (.+)$/.exec(auth)?.[1];
    if (!token || !fake.tokens.has(token)) return GRAPH_ERRORS.invalidToken();
    const session = sessions.get(upload);
    if (!session) return GRAPH_ERRORS.unknownObject(upload);
    if (request.headers.file_offset !== '0')
      return invalid('The file_offset header must be 0 for a new upload');
    if (request.raw.length !== session.fileLength)
      return invalid(`Received ${request.raw.length} bytes, expected ${session.fileLength}`);
    sessions.delete(upload);
    const handle = `4::${Buffer.from(`${session.fileType}:${randomBytes(9).toString('hex')}`).toString('base64')}`;
    fake.uploads.push({ fileName: session.fileName, fileType: session.fileType, bytes: request.raw, handle });
    return { status: 200, body: { h: handle } };
  });
}
