import { describe, expect, it } from "vitest";
import { normaliseHashtags, SHARE_NETWORK_NAMES, SHARE_NETWORKS, shareNetwork, shareUrl, toHashtags, type ShareNetworkName } from "./share-networks";

const data = {
  url: "https://backline.example/member/2/musicians/mia?x=1&y=2",
  title: "Mia & Friends: session guitar",
  description: "Fast turnaround, clean takes.",
  hashtags: ["Indie", "Folk"],
  twitterUser: "miaplays",
  media: "https://backline.example/storage/images/hero/7-abc/728x410.webp",
};

/** Where each network sends the user and what must be in the query, decoded. */
const EXPECTED: Record<ShareNetworkName, { base: string; params: Record<string, string> }> = {
  email: { base: "mailto:", params: { subject: data.title, body: `${data.description}\r\n${data.url}` } },
  sms: { base: "sms:", params: { body: `${data.title}\r\n${data.description}\r\n${data.url}` } },
  facebook: { base: "https://www.facebook.com/sharer/sharer.php", params: { u: data.url, hashtag: "#Indie" } },
  twitter: { base: "https://x.com/intent/tweet", params: { text: data.title, url: data.url, hashtags: "Indie,Folk", via: "miaplays" } },
  linkedin: { base: "https://www.linkedin.com/sharing/share-offsite/", params: { url: data.url } },
  reddit: { base: "https://www.reddit.com/submit", params: { url: data.url, title: data.title } },
  pinterest: { base: "https://pinterest.com/pin/create/button/", params: { url: data.url, media: data.media, description: data.title } },
  tumblr: {
    base: "https://www.tumblr.com/widgets/share/tool",
    params: { canonicalUrl: data.url, title: data.title, caption: data.description, tags: "Indie,Folk" },
  },
  telegram: { base: "https://t.me/share/url", params: { url: data.url, text: `${data.title}\r\n${data.description}` } },
  whatsapp: { base: "https://api.whatsapp.com/send", params: { text: `${data.title}\r\n${data.description}\r\n${data.url}` } },
  messenger: { base: "fb-messenger://share/", params: { link: data.url } },
  line: { base: "https://social-plugins.line.me/lineit/share", params: { url: data.url, text: data.title } },
  viber: { base: "viber://forward", params: { text: `${data.title}\r\n${data.description}\r\n${data.url}` } },
  vk: {
    base: "https://vk.com/share.php",
    params: { url: data.url, title: data.title, description: data.description, image: data.media, noparse: "true" },
  },
  odnoklassniki: { base: "https://connect.ok.ru/offer", params: { url: data.url, title: data.title, imageUrl: data.media } },
  weibo: { base: "https://service.weibo.com/share/share.php", params: { url: data.url, title: data.title, pic: data.media } },
  qzone: {
    base: "https://sns.qzone.qq.com/cgi-bin/qzshare/cgi_qzshare_onekey",
    params: { url: data.url, title: data.title, summary: data.description, pics: data.media },
  },
  buffer: { base: "https://buffer.com/add", params: { url: data.url, text: data.title } },
  evernote: { base: "https://www.evernote.com/clip.action", params: { url: data.url, title: data.title } },
  flipboard: { base: "https://share.flipboard.com/bookmarklet/popout", params: { v: "2", url: data.url, title: data.title } },
  hackernews: { base: "https://news.ycombinator.com/submitlink", params: { u: data.url, t: data.title } },
  instapaper: { base: "https://www.instapaper.com/edit", params: { url: data.url, title: data.title, description: data.description } },
  xing: { base: "https://www.xing.com/spi/shares/new", params: { url: data.url } },
  wordpress: { base: "https://wordpress.com/press-this.php", params: { u: data.url, t: data.title, s: data.description, i: data.media } },
  blogger: { base: "https://www.blogger.com/blog-this.g", params: { u: data.url, n: data.title, t: data.description } },
  bluesky: { base: "https://bsky.app/intent/compose", params: { text: `${data.title}\r\n${data.description}\r\n${data.url}` } },
  threads: { base: "https://www.threads.net/intent/post", params: { text: data.title, url: data.url } },
  teams: { base: "https://teams.microsoft.com/share", params: { href: data.url, msgText: data.title } },
};

/** Splits at the first "?" and decodes the query the way the receiving site would (%20 and + both spaces). */
function parse(href: string) {
  const at = href.indexOf("?");
  return { base: href.slice(0, at), params: Object.fromEntries(new URLSearchParams(href.slice(at + 1))) };
}

describe("shareUrl", () => {
  it("offers about 28 networks, email and sms among them", () => {
    expect(SHARE_NETWORK_NAMES.length).toBeGreaterThanOrEqual(26);
    expect(SHARE_NETWORK_NAMES.length).toBeLessThanOrEqual(30);
    expect(SHARE_NETWORK_NAMES).toEqual(expect.arrayContaining(["email", "sms", "facebook", "twitter"]));
    expect(Object.keys(EXPECTED).sort()).toEqual([...SHARE_NETWORK_NAMES].sort());
  });

  it.each(SHARE_NETWORK_NAMES)("builds the %s address with every field encoded", (network) => {
    const href = shareUrl(network, data);
    expect(parse(href)).toEqual(EXPECTED[network]);
    // Nothing the user typed reaches the address unencoded (no raw spaces, ampersands or line breaks).
    expect(href).not.toMatch(/[ \r\n]|& /);
  });

  it("encodes spaces as %20 for mail and messages, where + would show literally", () => {
    expect(shareUrl("email", data)).toMatch(/^mailto:\?subject=Mia%20%26%20Friends%3A%20session%20guitar&body=/);
    expect(shareUrl("sms", data)).toMatch(/^sms:\?body=Mia%20%26%20Friends/);
  });

  it("twitter: hashtags comma-joined and via only when given", () => {
    expect(shareUrl("twitter", data)).toContain("&hashtags=Indie,Folk&via=miaplays");
    const plain = shareUrl("twitter", { url: data.url, title: data.title });
    expect(plain).not.toContain("hashtags=");
    expect(plain).not.toContain("via=");
    expect(shareUrl("twitter", { ...data, hashtags: "#R&B, Soul ,", twitterUser: "@mia" })).toContain("&hashtags=R%26B,Soul&via=mia");
  });

  it("facebook: only the first hashtag, as %23tag", () => {
    const href = shareUrl("facebook", { ...data, hashtags: ["first", "second", "third"] });
    expect(href).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(data.url)}&hashtag=%23first`);
    expect(href).not.toContain("second");
    expect(shareUrl("facebook", { url: data.url, title: data.title })).not.toContain("hashtag");
  });

  it("leaves optional fields out when they are empty", () => {
    const href = shareUrl("vk", { url: data.url, title: data.title });
    expect(parse(href).params).toEqual({ url: data.url, title: data.title, noparse: "true" });
  });

  it("throws 'Network {name} does not exist' for an unknown network", () => {
    expect(() => shareUrl("myspace", data)).toThrowError(new Error("Network myspace does not exist"));
    expect(() => shareNetwork("")).toThrowError("Network  does not exist");
    // Inherited object keys are not networks.
    expect(() => shareUrl("toString", data)).toThrowError("Network toString does not exist");
  });

  it("mail, messages and app-only networks navigate; web networks use the popup", () => {
    const navigating = SHARE_NETWORK_NAMES.filter((n) => SHARE_NETWORKS[n].open === "navigate");
    expect(navigating.sort()).toEqual(["email", "messenger", "sms", "viber"]);
  });
});

describe("hashtag helpers", () => {
  it("normalises strings and lists", () => {
    expect(normaliseHashtags(" a, #b ,,c ")).toEqual(["a", "b", "c"]);
    expect(normaliseHashtags(["##x", " y "])).toEqual(["x", "y"]);
    expect(normaliseHashtags(undefined)).toEqual([]);
  });

  it("turns genre names into hashtags", () => {
    expect(toHashtags(["Hip-Hop/Rap", "R&B/Soul", "Drum & Bass", "K-Pop", "Indie", "Indie", "&"])).toEqual([
      "HipHopRap",
      "RBSoul",
      "DrumBass",
      "KPop",
      "Indie",
    ]);
    expect(toHashtags(["Música Latina"])).toEqual(["MúsicaLatina"]);
  });
});
