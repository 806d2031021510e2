import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/**
 * A real S3 API server (s3rver) inside the test process, on 127.0.0.1 with a fresh folder and one bucket, for
 * the S3 storage driver (docs/decisions/033-object-storage.md). s3rver speaks the S3 REST API (multipart uploads,
 * ranges, copies, listings, presigned URLs with their expiry) and knows one key pair, S3RVER/S3RVER; it does not
 * verify Signature V4 itself, so a test of a tampered signature belongs to the folder driver.
 */
export interface S3TestServer {
  /** A STORAGE_URL for the bucket. */
  url: string;
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the objects (to look at what is stored, byte for byte). */
  directory: string;
  close(): Promise<void>;
}

export async function startS3Server(bucket = "backline-test"): Promise<S3TestServer> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "backline-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    url: `s3://S3RVER:S3RVER@${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    endpoint,
    bucket,
    directory,
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
