import path from "node:path";
import { env } from "~/env.server";
import { createFileDriver } from "./file-driver.server";
import type { Storage } from "./storage-core";
import { parseStorageUrl, type StorageConfig } from "./storage-url";

export { isStorageKey, StoredFileMissingError, type Storage } from "./storage-core";

/**
 * Stored files (docs/decisions/033-object-storage.md): images, audio masters, deliverables, post-production
 * deliveries, DDEX packages and sales statements, by key (`audio/12-<hex>.wav`, the path a record keeps). One
 * interface, two drivers chosen by STORAGE_URL: a folder on this machine (the default, `file:./storage`) or any
 * S3-compatible store (several app nodes share it). Nothing here checks who may read a file: the services and
 * routes that hand out keys do, as before.
 */

let cached: { settings: string; storage: Storage } | undefined;

/** The storage STORAGE_URL names (one per process; the S3 client and its connections are reused). */
export function storage(): Storage {
  const { STORAGE_URL, DATA_DIR } = env();
  const settings = `${STORAGE_URL}\n${DATA_DIR}`;
  if (cached?.settings !== settings) cached = { settings, storage: createStorage(parseStorageUrl(STORAGE_URL), { dataDir: DATA_DIR }) };
  return cached.storage;
}

/**
 * A storage for `config`. Uploads on their way into an S3 bucket wait in DATA_DIR/uploads-tmp (on disk: a
 * tmpfs /tmp would hold a 500 MB upload in memory); the folder driver keeps them beside the files, one rename away.
 */
export function createStorage(config: StorageConfig, options: { dataDir: string }): Storage {
  if (config.driver === "file") return createFileDriver(config.root);
  const tmpDir = path.resolve(options.dataDir, "uploads-tmp");
  // The AWS SDK is loaded only when S3 is configured: a local-disk install never pays for it at start-up.
  let driver: Promise<Storage> | undefined;
  const load = () => (driver ??= import("./s3-driver.server").then((m) => m.createS3Driver(config, tmpDir)));
  return {
    driver: "s3",
    put: async (key, body, options) => (await load()).put(key, body, options),
    putFile: async (key, localPath, options) => (await load()).putFile(key, localPath, options),
    read: async (key, range) => (await load()).read(key, range),
    stat: async (key) => (await load()).stat(key),
    exists: async (key) => (await load()).exists(key),
    delete: async (key) => (await load()).delete(key),
    list: async (prefix) => (await load()).list(prefix),
    deletePrefix: async (prefix) => (await load()).deletePrefix(prefix),
    copy: async (fromKey, toKey) => (await load()).copy(fromKey, toKey),
    withLocalFile: async (key, work) => (await load()).withLocalFile(key, work),
    signedUrl: async (key, options) => (await load()).signedUrl(key, options),
    tmpDir: () => tmpDir,
  };
}
