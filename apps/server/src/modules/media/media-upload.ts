import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  MEDIA_MAX_BYTES,
  MEDIA_UPLOAD_MAX_BYTES,
  type MediaExtension,
  type MediaKind,
} from '@hablabot/contract';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { AppError } from '../../platform/errors';
import { type Detected, type HeadVerdict, createTextCheck, judgeHead, judgeZip, kindOf } from './media-types';

/** Bytes read before the format is judged: what the sniffer needs for nearly every signature. */
export const HEAD_BYTES = 4100;

/** An upload written to the staging folder and judged acceptable. */
export interface StagedUpload {
  /** The staged file; the caller moves it into storage or removes it. */
  file: string;
  ext: MediaExtension;
  kind: MediaKind;
  size: number;
  sha256: string;
}

export const unsupportedType = () =>
  new AppError(422, 'media.unsupported_type', undefined, { file: ['media.unsupported_type'] });
export const tooLarge = (kind: MediaKind) =>
  new AppError(422, `media.too_large_${kind}`, undefined, { file: [`media.too_large_${kind}`] });
export const emptyFile = () =>
  new AppError(422, 'media.empty_file', undefined, { file: ['media.empty_file'] });

async function sniff(head: Buffer): Promise<Detected | undefined> {
  try {
    return await fileTypeFromBuffer(head);
  } catch {
    return undefined;
  }
}

/**
 * Streams an upload to a file in `stagingDir` and judges it by its bytes. Nothing is held in memory
 * but the first HEAD_BYTES: the format is judged from them as soon as they are in, and from then on the
 * size limit of that kind is enforced byte by byte, so a 50 MB "image" stops at 5 MB. A refusal, an
 * aborted request or any error removes the staged file before the error goes on.
 */
export async function stageUpload(
  source: Readable,
  originalName: string,
  stagingDir: string,
): Promise<StagedUpload> {
  const file = path.join(stagingDir, `${randomBytes(16).toString('hex')}.part`);
  const hash = createHash('sha256');
  let verdict: HeadVerdict | undefined;
  let limit = MEDIA_UPLOAD_MAX_BYTES;
  let limitKind: MediaKind = 'document';
  let size = 0;
  const text = createTextCheck();

  const decide = async (head: Buffer) => {
    verdict = judgeHead(await sniff(head), originalName);
    if (verdict.status === 'refuse') throw unsupportedType();
    limitKind = verdict.status === 'accept' ? kindOf(verdict.ext) : 'document';
    limit = MEDIA_MAX_BYTES[limitKind];
    if (verdict.status === 'text') {
      text.push(head);
      if (text.failed) throw unsupportedType();
    }
    if (size > limit) throw tooLarge(limitKind);
  };

  async function* inspect(chunks: AsyncIterable<Buffer>) {
    let head: Buffer[] = [];
    let headSize = 0;
    for await (const chunk of chunks) {
      size += chunk.length;
      if (size > limit) throw tooLarge(limitKind);
      hash.update(chunk);
      if (!verdict) {
        head.push(chunk);
        headSize += chunk.length;
        if (headSize < HEAD_BYTES) continue;
        await decide(Buffer.concat(head));
        yield* head;
        head = [];
        continue;
      }
      if (verdict.status === 'text') {
        text.push(chunk);
        if (text.failed) throw unsupportedType();
      }
      yield chunk;
    }
    if (!verdict && size > 0) {
      await decide(Buffer.concat(head));
      yield* head;
    }
  }

  // Opened before streaming starts: a write stream opens its file later, so a refusal in the first
  // bytes could otherwise remove the file before it exists and leave it behind.
  const handle = await fs.promises.open(file, 'wx', 0o600);
  try {
    await pipeline(source, inspect, handle.createWriteStream());
    // busboy cuts a file at its own limit (set above ours) and says so here.
    if ((source as Readable & { truncated?: boolean }).truncated) throw tooLarge(limitKind);
    if (size === 0 || !verdict) throw emptyFile();
    let ext: MediaExtension;
    if (verdict.status === 'accept') {
      ext = verdict.ext;
    } else if (verdict.status === 'zip') {
      // Which Office format a zip is shows in its entries, which may lie anywhere in the file.
      const found = judgeZip(await fileTypeFromFile(file).catch(() => undefined));
      if (!found) throw unsupportedType();
      ext = found;
    } else if (verdict.status === 'text') {
      if (!text.end()) throw unsupportedType();
      ext = 'txt';
    } else {
      throw unsupportedType();
    }
    return { file, ext, kind: kindOf(ext), size, sha256: hash.digest('hex') };
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(file, { force: true });
    throw err;
  }
}
