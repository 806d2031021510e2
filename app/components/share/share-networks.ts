/**
 * Share links for public profile pages: about 28 networks, email and sms among
 * them, each with the share address the network itself documents. Browser-safe and pure, so the links
 * can be rendered on the server (they work without JavaScript) and tested on their own.
 */

export interface ShareData {
  /** The absolute address being shared. */
  url: string;
  title: string;
  description?: string;
  /** Without the leading "#"; a comma-separated string is accepted too. */
  hashtags?: string | readonly string[];
  /** The X (Twitter) account credited with `via`, without the "@". */
  twitterUser?: string;
  /** An absolute image address, for the networks that take one (Pinterest, VK, Weibo). */
  media?: string;
}

interface Normalised {
  url: string;
  title: string;
  description: string;
  hashtags: string[];
  twitterUser: string;
  media: string;
}

export interface ShareNetwork {
  /** The visible name ("Share on {label}"). */
  label: string;
  /**
   * popup: opened in a 626x436 window when JavaScript runs (a new tab without it);
   * navigate: handed to the device (mail, messages, installed apps), never a popup.
   */
  open: "popup" | "navigate";
  build(data: Normalised): string;
}

const enc = encodeURIComponent;

/** `base?key=value&...`, every value percent-encoded (spaces as %20, which mail and sms clients need); empty optional values left out. */
function withQuery(base: string, params: Array<[string, string, "required"?]>): string {
  const query = params
    .filter(([, value, required]) => required || value !== "")
    .map(([key, value]) => `${key}=${enc(value)}`)
    .join("&");
  return query ? `${base}${base.includes("?") ? "&" : "?"}${query}` : base;
}

/** Title, description and address on separate lines, for networks that take a single message. */
function message(d: Normalised, withUrl = true): string {
  return [d.title, d.description, withUrl ? d.url : ""].filter(Boolean).join("\r\n");
}

export const SHARE_NETWORKS = {
  email: {
    label: "Email",
    open: "navigate",
    build: (d) =>
      withQuery("mailto:", [
        ["subject", d.title, "required"],
        ["body", [d.description, d.url].filter(Boolean).join("\r\n"), "required"],
      ]),
  },
  sms: { label: "SMS", open: "navigate", build: (d) => withQuery("sms:", [["body", message(d), "required"]]) },
  facebook: {
    label: "Facebook",
    open: "popup",
    // Facebook takes a single hashtag: the first one.
    build: (d) =>
      withQuery("https://www.facebook.com/sharer/sharer.php", [
        ["u", d.url, "required"],
        ["hashtag", d.hashtags[0] ? `#${d.hashtags[0]}` : ""],
      ]),
  },
  twitter: {
    label: "X (Twitter)",
    open: "popup",
    build: (d) => {
      const base = withQuery("https://x.com/intent/tweet", [
        ["text", d.title, "required"],
        ["url", d.url, "required"],
      ]);
      // Each tag encoded on its own, joined by a literal comma as the intent documents.
      const tags = d.hashtags.length ? `&hashtags=${d.hashtags.map(enc).join(",")}` : "";
      const via = d.twitterUser ? `&via=${enc(d.twitterUser)}` : "";
      return `${base}${tags}${via}`;
    },
  },
  linkedin: {
    label: "LinkedIn",
    open: "popup",
    build: (d) => withQuery("https://www.linkedin.com/sharing/share-offsite/", [["url", d.url, "required"]]),
  },
  reddit: {
    label: "Reddit",
    open: "popup",
    build: (d) =>
      withQuery("https://www.reddit.com/submit", [
        ["url", d.url, "required"],
        ["title", d.title, "required"],
      ]),
  },
  pinterest: {
    label: "Pinterest",
    open: "popup",
    build: (d) =>
      withQuery("https://pinterest.com/pin/create/button/", [
        ["url", d.url, "required"],
        ["media", d.media],
        ["description", d.title, "required"],
      ]),
  },
  tumblr: {
    label: "Tumblr",
    open: "popup",
    build: (d) =>
      withQuery("https://www.tumblr.com/widgets/share/tool", [
        ["canonicalUrl", d.url, "required"],
        ["title", d.title, "required"],
        ["caption", d.description],
        ["tags", d.hashtags.join(",")],
      ]),
  },
  telegram: {
    label: "Telegram",
    open: "popup",
    build: (d) =>
      withQuery("https://t.me/share/url", [
        ["url", d.url, "required"],
        ["text", message(d, false), "required"],
      ]),
  },
  whatsapp: {
    label: "WhatsApp",
    open: "popup",
    build: (d) => withQuery("https://api.whatsapp.com/send", [["text", message(d), "required"]]),
  },
  messenger: { label: "Messenger", open: "navigate", build: (d) => withQuery("fb-messenger://share/", [["link", d.url, "required"]]) },
  line: {
    label: "LINE",
    open: "popup",
    build: (d) =>
      withQuery("https://social-plugins.line.me/lineit/share", [
        ["url", d.url, "required"],
        ["text", d.title],
      ]),
  },
  viber: { label: "Viber", open: "navigate", build: (d) => withQuery("viber://forward", [["text", message(d), "required"]]) },
  vk: {
    label: "VK",
    open: "popup",
    build: (d) =>
      withQuery("https://vk.com/share.php", [
        ["url", d.url, "required"],
        ["title", d.title, "required"],
        ["description", d.description],
        ["image", d.media],
        ["noparse", "true", "required"],
      ]),
  },
  odnoklassniki: {
    label: "Odnoklassniki",
    open: "popup",
    build: (d) =>
      withQuery("https://connect.ok.ru/offer", [
        ["url", d.url, "required"],
        ["title", d.title, "required"],
        ["imageUrl", d.media],
      ]),
  },
  weibo: {
    label: "Weibo",
    open: "popup",
    build: (d) =>
      withQuery("https://service.weibo.com/share/share.php", [
        ["url", d.url, "required"],
        ["title", d.title, "required"],
        ["pic", d.media],
      ]),
  },
  qzone: {
    label: "Qzone",
    open: "popup",
    build: (d) =>
      withQuery("https://sns.qzone.qq.com/cgi-bin/qzshare/cgi_qzshare_onekey", [
        ["url", d.url, "required"],
        ["title", d.title, "required"],
        ["summary", d.description],
        ["pics", d.media],
      ]),
  },
  buffer: {
    label: "Buffer",
    open: "popup",
    build: (d) =>
      withQuery("https://buffer.com/add", [
        ["url", d.url, "required"],
        ["text", d.title, "required"],
      ]),
  },
  evernote: {
    label: "Evernote",
    open: "popup",
    build: (d) =>
      withQuery("https://www.evernote.com/clip.action", [
        ["url", d.url, "required"],
        ["title", d.title, "required"],
      ]),
  },
  flipboard: {
    label: "Flipboard",
    open: "popup",
    build: (d) =>
      withQuery("https://share.flipboard.com/bookmarklet/popout", [
        ["v", "2", "required"],
        ["url", d.url, "required"],
        ["title", d.title, "required"],
      ]),
  },
  hackernews: {
    label: "Hacker News",
    open: "popup",
    build: (d) =>
      withQuery("https://news.ycombinator.com/submitlink", [
        ["u", d.url, "required"],
        ["t", d.title, "required"],
      ]),
  },
  instapaper: {
    label: "Instapaper",
    open: "popup",
    build: (d) =>
      withQuery("https://www.instapaper.com/edit", [
        ["url", d.url, "required"],
        ["title", d.title, "required"],
        ["description", d.description],
      ]),
  },
  xing: { label: "XING", open: "popup", build: (d) => withQuery("https://www.xing.com/spi/shares/new", [["url", d.url, "required"]]) },
  wordpress: {
    label: "WordPress",
    open: "popup",
    build: (d) =>
      withQuery("https://wordpress.com/press-this.php", [
        ["u", d.url, "required"],
        ["t", d.title, "required"],
        ["s", d.description],
        ["i", d.media],
      ]),
  },
  blogger: {
    label: "Blogger",
    open: "popup",
    build: (d) =>
      withQuery("https://www.blogger.com/blog-this.g", [
        ["u", d.url, "required"],
        ["n", d.title, "required"],
        ["t", d.description],
      ]),
  },
  bluesky: {
    label: "Bluesky",
    open: "popup",
    build: (d) => withQuery("https://bsky.app/intent/compose", [["text", message(d), "required"]]),
  },
  threads: {
    label: "Threads",
    open: "popup",
    build: (d) =>
      withQuery("https://www.threads.net/intent/post", [
        ["text", d.title, "required"],
        ["url", d.url, "required"],
      ]),
  },
  teams: {
    label: "Microsoft Teams",
    open: "popup",
    build: (d) =>
      withQuery("https://teams.microsoft.com/share", [
        ["href", d.url, "required"],
        ["msgText", d.title, "required"],
      ]),
  },
} as const satisfies Record<string, ShareNetwork>;

export type ShareNetworkName = keyof typeof SHARE_NETWORKS;

/** Every network, in the order the buttons show them. */
export const SHARE_NETWORK_NAMES = Object.keys(SHARE_NETWORKS) as ShareNetworkName[];

export function isShareNetwork(name: string): name is ShareNetworkName {
  return Object.hasOwn(SHARE_NETWORKS, name);
}

/** "a, #b ,c" or ["a", "#b"] -> ["a", "b"]: trimmed, without "#", empty ones dropped. */
export function normaliseHashtags(hashtags: ShareData["hashtags"]): string[] {
  const list = typeof hashtags === "string" ? hashtags.split(",") : (hashtags ?? []);
  return list.map((tag) => tag.trim().replace(/^#+/, "")).filter(Boolean);
}

/** The network's description (label, how it opens); throws for a network that does not exist. */
export function shareNetwork(name: string): ShareNetwork {
  if (!isShareNetwork(name)) throw new Error(`Network ${name} does not exist`);
  return SHARE_NETWORKS[name];
}

/** The share address of `data` on `network`; throws `Network {name} does not exist` for an unknown one. */
export function shareUrl(network: string, data: ShareData): string {
  const definition = shareNetwork(network);
  return definition.build({
    url: data.url,
    title: data.title,
    description: data.description?.trim() ?? "",
    hashtags: normaliseHashtags(data.hashtags),
    twitterUser: (data.twitterUser ?? "").trim().replace(/^@+/, ""),
    media: data.media ?? "",
  });
}

/** Words made into hashtags: letters and digits only ("Hip-Hop/Rap" -> "HipHopRap"), no duplicates. */
export function toHashtags(words: readonly string[]): string[] {
  const tags = words.map((word) => word.normalize("NFKC").replace(/[^\p{L}\p{N}_]+/gu, "")).filter(Boolean);
  return [...new Set(tags)];
}
