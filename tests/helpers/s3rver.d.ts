// s3rver ships no types: the part of its API tests/helpers/s3-server.ts uses.
declare module "s3rver" {
  import type { AddressInfo } from "node:net";
  export default class S3rver {
    constructor(options: { address?: string; port?: number; silent?: boolean; directory?: string; configureBuckets?: Array<{ name: string }> });
    run(): Promise<AddressInfo | string | null>;
    close(): Promise<void>;
  }
}
