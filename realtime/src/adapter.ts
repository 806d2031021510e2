/**
 * The part of the server state that a cluster shares: the message bus between nodes, presence
 * membership and per-channel subscription counts. `MemoryAdapter` serves one process;
 * `RedisAdapter` (redis-adapter.ts) serves many nodes sharing one Redis.
 */

/** user id -> user_info as JSON text. */
export type MemberMap = Map<string, string>;

export type JoinResult = { ok: true; added: boolean; seq: number; members: MemberMap } | { ok: false; reason: "full" };

export interface LeaveResult {
  removed: boolean;
  userId?: string;
}

/**
 * Messages between nodes. `o` is the origin node; `e`/`term` from a node are delivered locally by that
 * node itself and skipped when they come back. Member events (`ma`, `mr`) are emitted by the shared
 * store itself (atomically with the membership change, carrying a per-channel sequence number `s`), so
 * every node, the origin included, applies them from the bus in one order.
 */
export type BusMessage =
  | { t: "e"; o: string; cs: string[]; e: string; d: string; x?: string; u?: string }
  | { t: "ma"; o: string; c: string; u: string; i: unknown; s: number; x?: string }
  | { t: "mr"; o: string; c: string; u: string; s: number }
  | { t: "term"; o: string; u: string };

export interface LocalPresenceEntry {
  channel: string;
  socketId: string;
  userId: string;
  userInfo: string;
}

export interface AdapterHooks {
  onMessage(msg: BusMessage): void;
  /** What this node holds, for a node that must re-register after its peers declared it dead. */
  localState(): { counts: Map<string, number>; presence: LocalPresenceEntry[] };
  log(line: string): void;
}

export interface Adapter {
  readonly nodeId: string;
  readonly clustered: boolean;
  start(hooks: AdapterHooks): Promise<void>;
  /** Sends to the other nodes; the caller has already delivered locally. */
  broadcast(msg: BusMessage): Promise<void>;
  presenceJoin(channel: string, socketId: string, userId: string, userInfo: string, maxMembers: number): Promise<JoinResult>;
  presenceLeave(channel: string, socketId: string): Promise<LeaveResult>;
  presenceMembers(channel: string): Promise<MemberMap>;
  presenceUserCount(channel: string): Promise<number>;
  /** This node's number of subscriptions to a channel (0 removes it). Resolves once visible cluster-wide. */
  setLocalCount(channel: string, count: number): Promise<void>;
  /** Subscriptions to one channel across the cluster. */
  subscriptionCount(channel: string): Promise<number>;
  /** Every channel with at least one subscription anywhere, with its subscription count. */
  occupiedChannels(): Promise<Map<string, number>>;
  /** Leaves the cluster (graceful). */
  stop(): Promise<void>;
}

interface MemoryPresence {
  members: MemberMap;
  counts: Map<string, number>;
  conns: Map<string, string>;
  seq: number;
}

/** Single-process state. Member events are emitted synchronously through the hooks. */
export class MemoryAdapter implements Adapter {
  readonly clustered = false;
  private hooks?: AdapterHooks;
  private readonly presence = new Map<string, MemoryPresence>();
  private readonly counts = new Map<string, number>();

  constructor(readonly nodeId: string) {}

  async start(hooks: AdapterHooks): Promise<void> {
    this.hooks = hooks;
  }

  async broadcast(): Promise<void> {}

  async presenceJoin(channel: string, socketId: string, userId: string, userInfo: string, maxMembers: number): Promise<JoinResult> {
    let p = this.presence.get(channel);
    if (!p) {
      p = { members: new Map(), counts: new Map(), conns: new Map(), seq: 0 };
      this.presence.set(channel, p);
    }
    if (p.conns.has(socketId)) return { ok: true, added: false, seq: p.seq, members: new Map(p.members) };
    if (!p.members.has(userId) && p.members.size >= maxMembers) {
      if (p.conns.size === 0) this.presence.delete(channel);
      return { ok: false, reason: "full" };
    }
    p.conns.set(socketId, userId);
    const n = (p.counts.get(userId) ?? 0) + 1;
    p.counts.set(userId, n);
    let added = false;
    if (n === 1) {
      p.members.set(userId, userInfo);
      p.seq += 1;
      added = true;
      this.hooks?.onMessage({
        t: "ma",
        o: this.nodeId,
        c: channel,
        u: userId,
        i: JSON.parse(userInfo),
        s: p.seq,
        x: socketId,
      });
    }
    return { ok: true, added, seq: p.seq, members: new Map(p.members) };
  }

  async presenceLeave(channel: string, socketId: string): Promise<LeaveResult> {
    const p = this.presence.get(channel);
    const userId = p?.conns.get(socketId);
    if (!p || userId === undefined) return { removed: false };
    p.conns.delete(socketId);
    const n = (p.counts.get(userId) ?? 1) - 1;
    if (n > 0) {
      p.counts.set(userId, n);
      return { removed: false, userId };
    }
    p.counts.delete(userId);
    p.members.delete(userId);
    p.seq += 1;
    this.hooks?.onMessage({ t: "mr", o: this.nodeId, c: channel, u: userId, s: p.seq });
    if (p.conns.size === 0) this.presence.delete(channel);
    return { removed: true, userId };
  }

  async presenceMembers(channel: string): Promise<MemberMap> {
    return new Map(this.presence.get(channel)?.members ?? []);
  }

  async presenceUserCount(channel: string): Promise<number> {
    return this.presence.get(channel)?.members.size ?? 0;
  }

  async setLocalCount(channel: string, count: number): Promise<void> {
    if (count > 0) this.counts.set(channel, count);
    else this.counts.delete(channel);
  }

  async subscriptionCount(channel: string): Promise<number> {
    return this.counts.get(channel) ?? 0;
  }

  async occupiedChannels(): Promise<Map<string, number>> {
    return new Map(this.counts);
  }

  async stop(): Promise<void> {}
}
