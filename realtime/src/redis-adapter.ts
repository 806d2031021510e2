/**
 * Scale-out through one Redis (standalone, not Cluster): pub/sub carries events between nodes, and
 * presence lives in Redis hashes changed only by Lua scripts, so membership, the "once per user"
 * member events and their order are decided atomically in one place. See realtime/README.md.
 *
 * Keys (ns = `${prefix}${appId}:`):
 *   ns+"nodes"                       ZSET node id -> heartbeat expiry (Redis server time, ms)
 *   ns+"node:{id}:channels"          HASH channel -> this node's subscription count
 *   ns+"node:{id}:presence"          SET  presence channels where this node has connections
 *   ns+"presence:{ch}:conns"         HASH "{node} {socket}" -> user id
 *   ns+"presence:{ch}:counts"        HASH user id -> connections of the user (all nodes)
 *   ns+"presence:{ch}:members"       HASH user id -> user_info JSON
 *   ns+"presence:{ch}:seq"           STRING sequence of member events of the channel
 *   ns+"bus"                         pub/sub channel between nodes
 */
import { Redis } from "ioredis";
import type { Adapter, AdapterHooks, BusMessage, JoinResult, LeaveResult, MemberMap } from "./adapter";

/** A channel's member-event sequence is kept a day after it empties, so late messages stay ordered. */
export const SEQ_TTL_MS = 86_400_000;

const NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** KEYS conns counts members seq nodePresence; ARGV field userId info max bus nodeId socketId channel */
const JOIN = `
local seq
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  seq = tonumber(redis.call('GET', KEYS[4]) or '0')
  return {1, 0, seq, redis.call('HGETALL', KEYS[3])}
end
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 0 and redis.call('HLEN', KEYS[3]) >= tonumber(ARGV[4]) then
  return {0}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[5], ARGV[8])
redis.call('PERSIST', KEYS[4])
local added = 0
if redis.call('HINCRBY', KEYS[2], ARGV[2], 1) == 1 then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
  seq = redis.call('INCR', KEYS[4])
  added = 1
  redis.call('PUBLISH', ARGV[5], '{"t":"ma","o":' .. cjson.encode(ARGV[6]) .. ',"c":' .. cjson.encode(ARGV[8]) ..
    ',"u":' .. cjson.encode(ARGV[2]) .. ',"i":' .. ARGV[3] .. ',"s":' .. seq .. ',"x":' .. cjson.encode(ARGV[7]) .. '}')
else
  seq = tonumber(redis.call('GET', KEYS[4]) or '0')
end
return {1, added, seq, redis.call('HGETALL', KEYS[3])}
`;

/** KEYS conns counts members seq nodePresence; ARGV field bus nodeId channel dropNodeEntry seqTtl */
const LEAVE = `
local uid = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[5] == '1' then redis.call('SREM', KEYS[5], ARGV[4]) end
if not uid then return {0} end
redis.call('HDEL', KEYS[1], ARGV[1])
local removed = 0
if redis.call('HINCRBY', KEYS[2], uid, -1) <= 0 then
  redis.call('HDEL', KEYS[2], uid)
  redis.call('HDEL', KEYS[3], uid)
  local seq = redis.call('INCR', KEYS[4])
  removed = 1
  redis.call('PUBLISH', ARGV[2], '{"t":"mr","o":' .. cjson.encode(ARGV[3]) .. ',"c":' .. cjson.encode(ARGV[4]) ..
    ',"u":' .. cjson.encode(uid) .. ',"s":' .. seq .. '}')
  if redis.call('HLEN', KEYS[3]) == 0 then redis.call('PEXPIRE', KEYS[4], tonumber(ARGV[6])) end
end
return {removed, uid}
`;

/** KEYS nodes; ARGV nodeId ttlMs -> {wasRegistered, deadNodeIds} */
const HEARTBEAT = `${NOW_MS}
local known = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. now)
if known then return {1, dead} end
return {0, dead}
`;

/**
 * Removes a dead node and every presence connection it held, publishing member_removed for users left
 * with no connection. Claimed atomically: only one reaper succeeds, and a node that heartbeats again in
 * time is left alone. KEYS nodes; ARGV ns deadId bus reaperId seqTtl -> members removed, or -1.
 */
export const REAP = `${NOW_MS}
local score = redis.call('ZSCORE', KEYS[1], ARGV[2])
if (not score) or tonumber(score) >= now then return -1 end
redis.call('ZREM', KEYS[1], ARGV[2])
local ns, dead = ARGV[1], ARGV[2]
local tag = dead .. ' '
local removed = 0
for _, ch in ipairs(redis.call('SMEMBERS', ns .. 'node:' .. dead .. ':presence')) do
  local base = ns .. 'presence:' .. ch
  local all = redis.call('HGETALL', base .. ':conns')
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, #tag) == tag then
      local uid = all[i + 1]
      redis.call('HDEL', base .. ':conns', all[i])
      if redis.call('HINCRBY', base .. ':counts', uid, -1) <= 0 then
        redis.call('HDEL', base .. ':counts', uid)
        redis.call('HDEL', base .. ':members', uid)
        local seq = redis.call('INCR', base .. ':seq')
        redis.call('PUBLISH', ARGV[3], '{"t":"mr","o":' .. cjson.encode(ARGV[4]) .. ',"c":' .. cjson.encode(ch) ..
          ',"u":' .. cjson.encode(uid) .. ',"s":' .. seq .. '}')
        removed = removed + 1
      end
    end
  end
  if redis.call('HLEN', base .. ':members') == 0 then redis.call('PEXPIRE', base .. ':seq', tonumber(ARGV[5])) end
end
redis.call('DEL', ns .. 'node:' .. dead .. ':presence', ns .. 'node:' .. dead .. ':channels')
return removed
`;

/** KEYS nodes; ARGV ns channel('' = all) -> count, or flat {channel, count, ...} over live nodes */
const CHANNELS = `${NOW_MS}
local nodes = redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')
if ARGV[2] ~= '' then
  local total = 0
  for _, n in ipairs(nodes) do
    local v = redis.call('HGET', ARGV[1] .. 'node:' .. n .. ':channels', ARGV[2])
    if v then total = total + tonumber(v) end
  end
  return total
end
local acc, order = {}, {}
for _, n in ipairs(nodes) do
  local all = redis.call('HGETALL', ARGV[1] .. 'node:' .. n .. ':channels')
  for i = 1, #all, 2 do
    local c = all[i]
    if acc[c] == nil then acc[c] = 0; table.insert(order, c) end
    acc[c] = acc[c] + tonumber(all[i + 1])
  end
end
local out = {}
for _, c in ipairs(order) do
  if acc[c] > 0 then table.insert(out, c); table.insert(out, acc[c]) end
end
return out
`;

type ScriptName = "rtJoin" | "rtLeave" | "rtHeartbeat" | "rtReap" | "rtChannels";
type ScriptFn = (...args: (string | number)[]) => Promise<unknown>;

export interface RedisAdapterOptions {
  url: string;
  prefix: string;
  appId: string;
  nodeId: string;
  nodeTtlMs: number;
  heartbeatIntervalMs: number;
}

export class RedisAdapter implements Adapter {
  readonly clustered = true;
  readonly nodeId: string;
  private readonly ns: string;
  private readonly bus: string;
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private hooks?: AdapterHooks;
  private timer?: NodeJS.Timeout;
  private beating = false;
  private registered = false;
  private stopped = false;
  private dirty = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  /** Local presence subscriptions per channel, to drop the node's entry when the last one leaves. */
  private readonly localPresence = new Map<string, number>();

  constructor(private readonly opts: RedisAdapterOptions) {
    this.nodeId = opts.nodeId;
    this.ns = `${opts.prefix}${opts.appId}:`;
    this.bus = `${this.ns}bus`;
    const common = { lazyConnect: true, maxRetriesPerRequest: 5, connectionName: `realtime-${opts.nodeId}` };
    this.cmd = new Redis(opts.url, common);
    this.sub = new Redis(opts.url, common);
    this.cmd.defineCommand("rtJoin", { numberOfKeys: 5, lua: JOIN });
    this.cmd.defineCommand("rtLeave", { numberOfKeys: 5, lua: LEAVE });
    this.cmd.defineCommand("rtHeartbeat", { numberOfKeys: 1, lua: HEARTBEAT });
    this.cmd.defineCommand("rtReap", { numberOfKeys: 1, lua: REAP });
    this.cmd.defineCommand("rtChannels", { numberOfKeys: 1, lua: CHANNELS });
  }

  private script(name: ScriptName): ScriptFn {
    const fn = (this.cmd as unknown as Record<ScriptName, ScriptFn>)[name];
    return fn.bind(this.cmd);
  }

  private key(...parts: string[]): string {
    return this.ns + parts.join(":");
  }

  async start(hooks: AdapterHooks): Promise<void> {
    this.hooks = hooks;
    const onError = (err: Error) => hooks.log(`redis: ${err.message}`);
    this.cmd.on("error", onError);
    this.sub.on("error", onError);
    await Promise.all([this.cmd.connect(), this.sub.connect()]);
    this.sub.on("message", (_channel: string, raw: string) => this.onBusMessage(raw));
    await this.sub.subscribe(this.bus);
    await this.heartbeat();
    this.timer = setInterval(() => void this.heartbeat(), this.opts.heartbeatIntervalMs);
    this.timer.unref();
  }

  private onBusMessage(raw: string): void {
    let msg: BusMessage;
    try {
      msg = JSON.parse(raw) as BusMessage;
    } catch {
      return;
    }
    if ((msg.t === "e" || msg.t === "term") && msg.o === this.nodeId) return;
    this.hooks?.onMessage(msg);
  }

  /** Refreshes this node's entry, re-registers its state if peers had declared it dead, reaps dead peers. */
  private async heartbeat(): Promise<void> {
    if (this.beating || this.stopped) return;
    this.beating = true;
    try {
      const [known, dead] = (await this.script("rtHeartbeat")(this.key("nodes"), this.nodeId, this.opts.nodeTtlMs)) as [number, string[]];
      if (!known && this.registered) {
        this.hooks?.log(`node ${this.nodeId} was declared dead by its peers; registering its state again`);
        await this.resync();
      }
      this.registered = true;
      for (const id of dead) {
        if (id === this.nodeId) continue;
        const removed = (await this.script("rtReap")(this.key("nodes"), this.ns, id, this.bus, this.nodeId, SEQ_TTL_MS)) as number;
        if (removed >= 0) this.hooks?.log(`reaped dead node ${id}: ${removed} presence member(s) removed`);
      }
    } catch (err) {
      this.hooks?.log(`heartbeat failed: ${(err as Error).message}`);
    } finally {
      this.beating = false;
    }
  }

  private async resync(): Promise<void> {
    if (!this.hooks) return;
    const { counts, presence } = this.hooks.localState();
    const chKey = this.key("node", this.nodeId, "channels");
    const multi = this.cmd.multi().del(chKey);
    for (const [channel, n] of counts) if (n > 0) multi.hset(chKey, channel, n);
    await multi.exec();
    for (const p of presence) {
      await this.presenceJoin(p.channel, p.socketId, p.userId, p.userInfo, Number.MAX_SAFE_INTEGER, false);
    }
  }

  async broadcast(msg: BusMessage): Promise<void> {
    await this.cmd.publish(this.bus, JSON.stringify(msg));
  }

  private presenceKeys(channel: string): string[] {
    const base = this.key("presence", channel);
    return [`${base}:conns`, `${base}:counts`, `${base}:members`, `${base}:seq`, this.key("node", this.nodeId, "presence")];
  }

  async presenceJoin(channel: string, socketId: string, userId: string, userInfo: string, maxMembers: number, track = true): Promise<JoinResult> {
    if (track) this.localPresence.set(channel, (this.localPresence.get(channel) ?? 0) + 1);
    const res = (await this.script("rtJoin")(
      ...this.presenceKeys(channel),
      `${this.nodeId} ${socketId}`,
      userId,
      userInfo,
      maxMembers,
      this.bus,
      this.nodeId,
      socketId,
      channel,
    )) as [number, number?, number?, string[]?];
    if (res[0] !== 1) return { ok: false, reason: "full" };
    return { ok: true, added: res[1] === 1, seq: Number(res[2]), members: pairs(res[3] ?? []) };
  }

  async presenceLeave(channel: string, socketId: string): Promise<LeaveResult> {
    const left = (this.localPresence.get(channel) ?? 1) - 1;
    if (left > 0) this.localPresence.set(channel, left);
    else this.localPresence.delete(channel);
    const res = (await this.script("rtLeave")(
      ...this.presenceKeys(channel),
      `${this.nodeId} ${socketId}`,
      this.bus,
      this.nodeId,
      channel,
      left > 0 ? "0" : "1",
      SEQ_TTL_MS,
    )) as [number, string?];
    return { removed: res[0] === 1, userId: res[1] ?? undefined };
  }

  async presenceMembers(channel: string): Promise<MemberMap> {
    return pairs(await this.cmd.hgetall(this.key("presence", channel, "members")).then(flatten));
  }

  async presenceUserCount(channel: string): Promise<number> {
    return this.cmd.hlen(this.key("presence", channel, "members"));
  }

  /** Batched: every count changed in one tick is written in one pipeline. */
  setLocalCount(channel: string, count: number): Promise<void> {
    this.dirty.set(channel, count);
    if (!this.flushing) {
      this.flushing = new Promise<void>((resolve) => {
        setImmediate(() => {
          const batch = this.dirty;
          this.dirty = new Map();
          this.flushing = null;
          const key = this.key("node", this.nodeId, "channels");
          const pipe = this.cmd.pipeline();
          for (const [c, n] of batch) {
            if (n > 0) pipe.hset(key, c, n);
            else pipe.hdel(key, c);
          }
          pipe.exec().then(
            () => resolve(),
            (err: Error) => {
              this.hooks?.log(`count flush failed: ${err.message}`);
              resolve();
            },
          );
        });
      });
    }
    return this.flushing;
  }

  async subscriptionCount(channel: string): Promise<number> {
    return Number(await this.script("rtChannels")(this.key("nodes"), this.ns, channel));
  }

  async occupiedChannels(): Promise<Map<string, number>> {
    const flat = (await this.script("rtChannels")(this.key("nodes"), this.ns, "")) as (string | number)[];
    const out = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) out.set(String(flat[i]), Number(flat[i + 1]));
    return out;
  }

  /** Leaves the cluster: whatever presence entries remain are removed as if the node had died. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    try {
      if (this.flushing) await this.flushing;
      await this.cmd.zadd(this.key("nodes"), 0, this.nodeId);
      await this.script("rtReap")(this.key("nodes"), this.ns, this.nodeId, this.bus, this.nodeId, SEQ_TTL_MS);
    } catch (err) {
      this.hooks?.log(`leaving the cluster failed: ${(err as Error).message}`);
    }
    this.sub.disconnect();
    await this.cmd.quit().catch(() => this.cmd.disconnect());
  }

  /** Stops without any cleanup, as a crash would (tests). */
  crash(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.sub.disconnect();
    this.cmd.disconnect();
  }
}

function flatten(h: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(h)) out.push(k, v);
  return out;
}

function pairs(flat: string[]): MemberMap {
  const m: MemberMap = new Map();
  for (let i = 0; i < flat.length; i += 2) m.set(String(flat[i]), String(flat[i + 1]));
  return m;
}
