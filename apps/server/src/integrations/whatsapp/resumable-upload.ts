import type { Readable } from 'node:stream';
import { callOutside, type OutboundResult } from '../http/outbound';
import { graphUrl } from './graph-api';
import { failureOf, type TemplateWriteFailure } from './template-admin';

/**
 * A media header's sample for a new template, uploaded with Meta's Resumable Upload API: the app the
 * token belongs to (`GET {base}/app`), a session for the file (`POST {base}/{app-id}/uploads?file_name=
 * &file_length=&file_type=` → `{ id: 'upload:…' }`), then the bytes (`POST {base}/{upload-id}` with
 * `Authorization: OAuth {token}` and `file_offset: 0` → `{ h }`). The handle `h` is what a template's
 * `example.header_handle` names. Every call goes through the outbound policy (callOutside).
 */

export type SampleUpload = { ok: true; handle: string } | TemplateWriteFailure;

interface Account {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

export interface SampleFile {
  name: string;
  mimeType: string;
  size: number;
  /** The bytes, read once. */
  stream(): Readable;
}

const answerOf = (result: OutboundResult) =>
  (result.kind === 'answer' ? result.json : undefined) as Record<string, unknown> | undefined;

const unexpected = (status?: number): TemplateWriteFailure => ({
  ok: false,
  problem: 'unexpected_answer',
  status: status ?? 200,
});

/** Uploads the sample and answers Meta's handle for it. */
export async function uploadTemplateSample(account: Account, file: SampleFile): Promise<SampleUpload> {
  const bearer = { authorization: `Bearer ${account.token}` };
  const app = await callOutside(graphUrl(account.baseUrl, 'app'), {
    headers: bearer,
    timeoutMs: account.timeoutMs,
  });
  const appFailure = failureOf(app);
  if (appFailure) return appFailure;
  const appId = answerOf(app)?.id;
  if ((typeof appId !== 'string' && typeof appId !== 'number') || appId === '') return unexpected();

  const session = new URL(graphUrl(account.baseUrl, `${encodeURIComponent(String(appId))}/uploads`));
  session.searchParams.set('file_name', file.name);
  session.searchParams.set('file_length', String(file.size));
  session.searchParams.set('file_type', file.mimeType);
  const opened = await callOutside(session.toString(), {
    method: 'POST',
    headers: bearer,
    timeoutMs: account.timeoutMs,
  });
  const openFailure = failureOf(opened);
  if (openFailure) return openFailure;
  const uploadId = answerOf(opened)?.id;
  if (typeof uploadId !== 'string' || !uploadId.startsWith('upload:')) return unexpected();

  const sent = await callOutside(graphUrl(account.baseUrl, uploadId), {
    method: 'POST',
    headers: {
      authorization: `OAuth ${account.token}`,
      file_offset: '0',
      'content-type': 'application/octet-stream',
      'content-length': String(file.size),
    },
    bytes: file.stream(),
    timeoutMs: account.timeoutMs,
  });
  const sendFailure = failureOf(sent);
  if (sendFailure) return sendFailure;
  const handle = answerOf(sent)?.h;
  return typeof handle === 'string' && handle ? { ok: true, handle } : unexpected();
}
