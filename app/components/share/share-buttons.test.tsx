import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ShareButtons } from "./share-buttons";
import { SHARE_NETWORK_NAMES, shareUrl } from "./share-networks";

const data = {
  url: "https://backline.example/member/2/musicians/mia",
  title: "Mia Member",
  hashtags: ["Indie", "Folk"],
  twitterUser: "mia",
};

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

describe("<ShareButtons>", () => {
  const html = renderToStaticMarkup(<ShareButtons {...data} />);

  it("renders one plain link per network with its share address (works without JavaScript)", () => {
    for (const network of SHARE_NETWORK_NAMES) {
      expect(html).toContain(`href="${escapeHtml(shareUrl(network, data))}"`);
    }
    expect(html.match(/<a /g)?.length).toBe(SHARE_NETWORK_NAMES.length);
  });

  it("names each link for screen readers and opens web networks in a new tab, mail and sms in place", () => {
    expect(html).toMatch(
      /<a href="https:\/\/www\.facebook\.com[^"]*" aria-label="Share on Facebook" data-network="facebook" target="_blank" rel="noopener noreferrer"/,
    );
    expect(html).toMatch(/<a href="mailto:[^"]*" aria-label="Share by email" data-network="email" class=/);
    expect(html).toMatch(/<a href="sms:[^"]*" aria-label="Share by SMS" data-network="sms" class=/);
  });

  it("limits the list to the networks asked for, and shows Copy link only with JavaScript", () => {
    const some = renderToStaticMarkup(<ShareButtons {...data} networks={["twitter", "email"]} />);
    expect(some.match(/<a /g)?.length).toBe(2);
    expect(some).not.toContain("More ways to share");
    expect(html).not.toContain("Copy link");
  });
});
