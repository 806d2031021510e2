/** Public API of the realtime server (Pusher Channels protocol 7). */
export { createRealtimeServer, newNodeId } from "./server";
export type { RealtimeServer } from "./server";
export { loadRealtimeConfig, defaultOptions, DEV_DEFAULTS } from "./config";
export type { RealtimeOptions } from "./config";
export { Codes, channelKind, encryptedChannelSharedSecret, isValidChannelName, signChannel, signUser } from "./protocol";
