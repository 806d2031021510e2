import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { signedUrl } from "~/modules/security/signed-url.server";
import { assertKey, assertPrefix, StoredFileMissingError, type Storage, type StoredObjectInfo } from "./storage-core";

/**
 * The folder driver: key `a/b.wav` is the file `<root>/a/b.wav`, so a folder written before object storage
 * existed (STORAGE_DIR, default ./storage) is read as it is. Writes go to `<root>/.uploads/` first and are
 * renamed into place (readers never see half a file); keys never start with a dot, so that folder is never a
 * key. Signed URLs point at the app's own /storage/signed/<key> (app/routes/storage.signed.$.ts).
 */

/** Where the app serves a file driver's signed URLs. */
export const SIGNED_PATH_PREFIX = "/storage/signed/";

const MISSING = new Set(["ENOENT", "ENOTDIR", "EISDIR"]);
const isMissing = (error: unknown) => MISSING.has((error as NodeJS.ErrnoException)?.code ?? "");

export function createFileDriver(rootSetting: string): Storage {
  const root = path.resolve(rootSetting);
  const staging = path.join(root, ".uploads");

  const fileOf = (key: string) => {
    const file = path.join(root, assertKey(key));
    // The key pattern already keeps every path inside the root; this is belt and braces.
    if (!file.startsWith(root + path.sep)) throw new Error(`Not a storage key: ${key}`);
    return file;
  };
  const stagingFile = async () => {
    await fs.mkdir(staging, { recursive: true });
    return path.join(staging, `${randomBytes(16).toString("hex")}.part`);
  };
  /** Renames a finished staging file onto the key's path. */
  const moveInto = async (from: string, key: string) => {
    const target = fileOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(from, target);
  };

  const stat = async (key: string): Promise<StoredObjectInfo | null> => {
    try {
      const found = await fs.stat(fileOf(key));
      if (!found.isFile()) return null;
      return { size: found.size, lastModified: found.mtime, etag: `"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"` };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  const put: Storage["put"] = async (key, body) => {
    fileOf(key);
    const part = await stagingFile();
    try {
      let bytes = 0;
      if (body instanceof Uint8Array) {
        await fs.writeFile(part, body);
        bytes = body.length;
      } else {
        const count = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            bytes += chunk.length;
            callback(null, chunk);
          },
        });
        await pipeline(body, count, createWriteStream(part));
      }
      await moveInto(part, key);
      return { bytes };
    } catch (error) {
      await fs.rm(part, { force: true });
      throw error;
    }
  };

  return {
    driver: "file",
    put,

    async putFile(key, localPath) {
      fileOf(key);
      const { size } = await fs.stat(localPath);
      try {
        // The upload was received into tmpDir(), on the same disk: one rename.
        await moveInto(localPath, key);
        return { bytes: size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      }
      return put(key, createReadStream(localPath));
    },

    async read(key, range) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(fileOf(key), "r");
        if (!(await handle.stat()).isFile()) {
          await handle.close();
          throw new StoredFileMissingError(key);
        }
      } catch (error) {
        if (isMissing(error)) throw new StoredFileMissingError(key);
        throw error;
      }
      // The stream closes the handle when it ends or is destroyed.
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    stat,

    async exists(key) {
      return (await stat(key)) !== null;
    },

    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },

    async list(prefix) {
      const folder = fileOf(assertPrefix(prefix).slice(0, -1));
      let entries: string[];
      try {
        entries = await fs.readdir(folder, { recursive: true });
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      const keys: string[] = [];
      for (const entry of entries) {
        const relative = entry.split(path.sep).join("/");
        const key = `${prefix}${relative}`;
        if (relative.split("/").some((segment) => segment.startsWith("."))) continue;
        if ((await stat(key)) !== null) keys.push(key);
      }
      return keys.sort();
    },

    async deletePrefix(prefix) {
      await fs.rm(fileOf(assertPrefix(prefix).slice(0, -1)), { recursive: true, force: true });
    },

    async copy(fromKey, toKey) {
      const part = await stagingFile();
      try {
        await fs.copyFile(fileOf(fromKey), part);
        await moveInto(part, toKey);
      } catch (error) {
        await fs.rm(part, { force: true });
        if (isMissing(error) && !(await stat(fromKey))) throw new StoredFileMissingError(fromKey);
        throw error;
      }
    },

    async withLocalFile(key, work) {
      if (!(await stat(key))) throw new StoredFileMissingError(key);
      return work(fileOf(key));
    },

    async signedUrl(key, options) {
      const query: Record<string, string> = {};
      if (options.downloadName !== undefined) query.name = options.downloadName;
      if (options.contentType !== undefined) query.type = options.contentType;
      return signedUrl(`${SIGNED_PATH_PREFIX}${assertKey(key)}`, options.expiresInSeconds, query);
    },

    tmpDir: () => staging,
  };
}
