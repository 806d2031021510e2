/**
 * STORAGE_URL, the one setting that says where stored files live (docs/decisions/033-object-storage.md):
 *   file:./storage                          a folder on this machine (the default; relative to the working folder)
 *   file:/data/storage, file:///data/storage an absolute folder
 *   s3://bucket?endpoint=…&region=…&forcePathStyle=true
 *   s3://KEY:SECRET@bucket/prefix?…         credentials and a key prefix in the URL (else the AWS SDK's own chain:
 *                                           AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role)
 * Parsed once at boot, so a typo stops the start with a message instead of losing an upload later.
 */

export type StorageConfig =
  | { driver: "file"; root: string }
  | {
      driver: "s3";
      bucket: string;
      /** Keys are stored under this prefix ("" or "folder/"). */
      prefix: string;
      /** An S3-compatible store's address (MinIO, Cloudflare R2, s3rver); unset: AWS S3 itself. */
      endpoint: string | null;
      region: string;
      forcePathStyle: boolean;
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
    };

export class StorageUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StorageUrlError";
  }
}

const S3_PARAMETERS = new Set(["endpoint", "region", "forcePathStyle"]);
// S3's bucket naming rules (lower case, digits, dots and hyphens, 3 to 63 characters).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function parseStorageUrl(value: string): StorageConfig {
  const text = value.trim();
  if (text.startsWith("file:")) {
    // file:///abs, file:/abs and file:./rel all name a folder; the host part of file://host/ is not supported.
    let root = text.slice("file:".length);
    if (root.startsWith("//")) {
      if (!root.startsWith("///")) throw new StorageUrlError("file: URLs name a folder on this machine: file:./storage or file:///data/storage.");
      root = root.slice(2);
    }
    if (!root) throw new StorageUrlError("file: needs a folder, e.g. file:./storage.");
    return { driver: "file", root: decodeURIComponent(root) };
  }
  if (!text.startsWith("s3://")) throw new StorageUrlError("must start with file: (a folder) or s3:// (a bucket), e.g. file:./storage.");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StorageUrlError("is not a valid s3:// URL, e.g. s3://bucket?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true.");
  }
  const bucket = url.hostname;
  if (!BUCKET.test(bucket)) throw new StorageUrlError(`"${bucket}" is not a bucket name (3 to 63 lower-case letters, digits, dots and hyphens).`);
  if (url.port) throw new StorageUrlError("the port belongs in the endpoint parameter: s3://bucket?endpoint=http://host:9000.");
  const segments = url.pathname.split("/").filter(Boolean);
  if (!segments.every((s) => PREFIX_SEGMENT.test(s))) throw new StorageUrlError(`"${url.pathname}" is not a key prefix (letters, digits, dots, hyphens and underscores between slashes).`);
  const prefix = segments.length ? `${segments.join("/")}/` : "";
  for (const name of url.searchParams.keys()) {
    if (!S3_PARAMETERS.has(name)) throw new StorageUrlError(`unknown parameter "${name}" (known: ${[...S3_PARAMETERS].join(", ")}).`);
  }
  const endpoint = url.searchParams.get("endpoint");
  if (endpoint !== null && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint)) throw new StorageUrlError("endpoint must be http(s)://host[:port], e.g. http://127.0.0.1:9000.");
  const forcePathStyle = url.searchParams.get("forcePathStyle");
  if (forcePathStyle !== null && forcePathStyle !== "true" && forcePathStyle !== "false") throw new StorageUrlError("forcePathStyle must be true or false.");
  const region = url.searchParams.get("region") ?? "us-east-1";
  if (!/^[a-z0-9-]+$/.test(region)) throw new StorageUrlError(`"${region}" is not a region name (e.g. us-east-1, or auto for Cloudflare R2).`);
  const accessKeyId = decodeURIComponent(url.username);
  const secretAccessKey = decodeURIComponent(url.password);
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new StorageUrlError("give both the access key and its secret (s3://KEY:SECRET@bucket), or neither.");
  return {
    driver: "s3",
    bucket,
    prefix,
    endpoint: endpoint ? endpoint.replace(/\/$/, "") : null,
    region,
    forcePathStyle: forcePathStyle === "true",
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : null,
  };
}

/** What the start-up line says about the storage (never the credentials). */
export function describeStorage(config: StorageConfig): string {
  if (config.driver === "file") return `files in ${config.root}`;
  const where = config.endpoint ? ` at ${config.endpoint}` : "";
  return `S3 bucket ${config.bucket}${config.prefix ? `/${config.prefix}` : ""}${where} (${config.region}${config.forcePathStyle ? ", path-style" : ""})`;
}
