import type { Readable } from "node:stream";
import type { StorageConfig } from "./storage-url";

/** The storage interface both drivers implement, its errors and what a key is (docs/decisions/033-object-storage.md). */

/** A byte range, both ends included (as HTTP's `bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObjectInfo {
  size: number;
  lastModified: Date;
  /** Quoted, as an HTTP ETag: changes when the content does. */
  etag: string;
}

export interface PutOptions {
  contentType?: string;
}

export interface SignedUrlOptions {
  /** How long the URL works; keep it short (minutes): anyone holding it can read the file. */
  expiresInSeconds: number;
  /** Served as an attachment with this file name. */
  downloadName?: string;
  contentType?: string;
}

export interface Storage {
  readonly driver: StorageConfig["driver"];
  /**
   * Stores `body` under `key`, replacing what was there. A stream is read once and never held whole (S3: a
   * streamed multipart upload); readers see the old content or the new one, never a part.
   */
  put(key: string, body: Readable | Uint8Array, options?: PutOptions): Promise<{ bytes: number }>;
  /**
   * Stores a local file (an upload received into `tmpDir()`) under `key`. The local file may be moved away
   * (same disk: a rename), so the caller deletes it afterwards with `force`.
   */
  putFile(key: string, localPath: string, options?: PutOptions): Promise<{ bytes: number }>;
  /** The content, or the bytes of `range`; throws StoredFileMissingError when there is no such file. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Size, date and ETag; null when there is no such file. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes the file; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (which ends with "/"), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every file under `prefix` (which ends with "/"). */
  deletePrefix(prefix: string): Promise<void>;
  /** Copies a stored file to another key; throws StoredFileMissingError when the source is missing. */
  copy(fromKey: string, toKey: string): Promise<void>;
  /**
   * Runs `work` with the path of a local file holding the content, for libraries that read files by path
   * (statement parsing reads a file twice). The folder driver hands over the stored file itself (read it,
   * never change it); the S3 driver streams a temporary copy, removed when `work` settles.
   */
  withLocalFile<T>(key: string, work: (localPath: string) => Promise<T>): Promise<T>;
  /** A URL that serves the file without a session until it expires (byte ranges too). */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string>;
  /** A local folder for uploads on their way in (checked there, then `putFile`d); created on demand. */
  tmpDir(): string;
}

/** A read or copy of a key that holds no file. */
export class StoredFileMissingError extends Error {
  constructor(readonly key: string) {
    super(`No stored file at ${key}`);
    this.name = "StoredFileMissingError";
  }
}

// Keys are what records keep: relative, slash-separated, no empty or dot segments, nothing to escape in a URL.
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const MAX_KEY_LENGTH = 512;

export function isStorageKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && KEY.test(key) && !key.split("/").some((segment) => /^\.+$/.test(segment));
}

/** Throws on anything that is not a key (a bug in the caller: keys come from our own records and patterns). */
export function assertKey(key: string): string {
  if (!isStorageKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
  return key;
}

export function assertPrefix(prefix: string): string {
  if (!prefix.endsWith("/") || !isStorageKey(prefix.slice(0, -1))) throw new Error(`Not a storage prefix: ${JSON.stringify(prefix)}`);
  return prefix;
}

/** A Content-Disposition that saves the file under `name` (ASCII fallback, and the exact name in RFC 8187 form). */
export function attachmentDisposition(name: string): string {
  return `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
