import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline as pipe, Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { assertKey, assertPrefix, attachmentDisposition, StoredFileMissingError, type Storage, type StoredObjectInfo } from "./storage-core";
import type { StorageConfig } from "./storage-url";

/**
 * The S3 driver (AWS S3, Cloudflare R2, MinIO, any S3-compatible store): key `a/b.wav` is the object
 * `<prefix>a/b.wav` in the bucket. Streams are uploaded as multipart uploads of PART_BYTES parts, QUEUE_SIZE
 * of them in flight (lib-storage), so an upload holds a few parts in memory whatever its size (the contract
 * test measures a 200 MB upload); a body smaller than one part is one PutObject. 5 MB is S3's smallest part:
 * the least memory, and 10,000 parts still allow 50 GB.
 */

const PART_BYTES = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** Deletes of a prefix's objects in flight at once (one DeleteObject each: every S3-compatible store has it). */
const DELETE_CONCURRENCY = 8;

type S3Config = Extract<StorageConfig, { driver: "s3" }>;

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const isNotFound = (error: unknown) => {
  const name = (error as { name?: string })?.name;
  return name === "NoSuchKey" || name === "NotFound" || statusOf(error) === 404;
};

/** Passes the `length` bytes after the first `skip` and drops the rest. */
function sliceBytes(skip: number, length: number): Transform {
  let position = 0;
  const end = skip + length;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const from = Math.max(0, skip - position);
      const to = Math.min(chunk.length, end - position);
      position += chunk.length;
      callback(null, to > from ? chunk.subarray(from, to) : undefined);
    },
  });
}

export function createS3Driver(config: S3Config, tmpDir: string): Storage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Checksums only where S3 requires them: the SDK's default (a CRC trailer in an aws-chunked body on every
    // upload) is not understood by every S3-compatible store, and TLS already protects the bytes in transit.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = config.bucket;
  const objectKey = (key: string) => `${config.prefix}${assertKey(key)}`;

  const stat = async (key: string): Promise<StoredObjectInfo | null> => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
      return { size: head.ContentLength ?? 0, lastModified: head.LastModified ?? new Date(0), etag: head.ETag ?? `"${head.ContentLength ?? 0}"` };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };

  const put: Storage["put"] = async (key, body, options = {}) => {
    const Key = objectKey(key);
    if (body instanceof Uint8Array) {
      await client.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentLength: body.length, ContentType: options.contentType }));
      return { bytes: body.length };
    }
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    // A failing source destroys `count` with its error, which fails the upload (and aborts its parts).
    const counted = pipe(body, count, () => {});
    const upload = new Upload({ client, params: { Bucket, Key, Body: counted, ContentType: options.contentType }, partSize: PART_BYTES, queueSize: QUEUE_SIZE, leavePartsOnError: false });
    await upload.done();
    return { bytes };
  };

  const read: Storage["read"] = async (key, range) => {
    let output: GetObjectCommandOutput;
    try {
      output = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
    } catch (error) {
      if (isNotFound(error)) throw new StoredFileMissingError(key);
      throw error;
    }
    // In Node the body is the HTTP response itself: a Readable that is read as it arrives.
    const body = output.Body as Readable;
    if (!range) return body;
    // A store that answers more than the range asked (or ignores Range and sends it all, as some S3-compatible
    // stores do) is cut to the range here, so a 206 never carries bytes its Content-Range does not name.
    const length = range.end - range.start + 1;
    const answeredFrom = /^bytes (\d+)-/.exec(output.ContentRange ?? "");
    const skip = answeredFrom ? range.start - Number(answeredFrom[1]) : range.start;
    if (skip === 0 && output.ContentLength === length) return body;
    if (skip < 0) {
      body.destroy();
      throw new Error(`The store answered ${output.ContentRange} for bytes=${range.start}-${range.end}`);
    }
    return pipe(body, sliceBytes(skip, length), () => {});
  };

  const list: Storage["list"] = async (prefix) => {
    const Prefix = `${config.prefix}${assertPrefix(prefix)}`;
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key.slice(config.prefix.length));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  };

  return {
    driver: "s3",
    put,

    async putFile(key, localPath, options) {
      return put(key, createReadStream(localPath), options);
    },

    read,
    stat,

    async exists(key) {
      return (await stat(key)) !== null;
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },

    list,

    async deletePrefix(prefix) {
      const keys = await list(prefix);
      for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
        await Promise.all(keys.slice(i, i + DELETE_CONCURRENCY).map((key) => client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }))));
      }
    },

    async copy(fromKey, toKey) {
      try {
        await client.send(new CopyObjectCommand({ Bucket, Key: objectKey(toKey), CopySource: `${Bucket}/${objectKey(fromKey)}` }));
      } catch (error) {
        if (isNotFound(error)) throw new StoredFileMissingError(fromKey);
        throw error;
      }
    },

    async withLocalFile(key, work) {
      await fs.mkdir(tmpDir, { recursive: true });
      const local = path.join(tmpDir, `${randomBytes(16).toString("hex")}${path.extname(key)}`);
      try {
        await pipeline(await read(key), createWriteStream(local));
        return await work(local);
      } finally {
        await fs.rm(local, { force: true });
      }
    },

    async signedUrl(key, options) {
      const command = new GetObjectCommand({
        Bucket,
        Key: objectKey(key),
        ResponseContentType: options.contentType,
        ResponseContentDisposition: options.downloadName === undefined ? undefined : attachmentDisposition(options.downloadName),
      });
      return getSignedUrl(client, command, { expiresIn: options.expiresInSeconds });
    },

    tmpDir: () => tmpDir,
  };
}

