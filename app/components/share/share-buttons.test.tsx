// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { ShareButtons, shareLabel } from "./share-buttons";
import { SHARE_NETWORK_NAMES, shareUrl } from "./share-networks";

const data = {
  url: "https://backline.example/member/2/musicians/mia",
  title: "Mia Member",
  hashtags: ["Indie", "Folk"],
  twitterUser: "mia",
};

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
});

/** The markup the server sends (what a browser without JavaScript shows), as a DOM to query. */
function serverRendered(element: React.ReactElement): HTMLElement {
  const container = document.createElement("div");
  container.innerHTML = renderToStaticMarkup(element);
  document.body.append(container);
  return container;
}

describe("<ShareButtons>", () => {
  it("renders one plain link per network with its share address (works without JavaScript)", () => {
    const page = within(serverRendered(<ShareButtons {...data} />));
    const links = page.getAllByRole("link");
    expect(links).toHaveLength(SHARE_NETWORK_NAMES.length);
    for (const network of SHARE_NETWORK_NAMES) {
      expect(page.getByRole("link", { name: shareLabel(network) }).getAttribute("href")).toBe(shareUrl(network, data));
    }
  });

  it("names each link for screen readers and opens web networks in a new tab, mail and sms in place", () => {
    render(<ShareButtons {...data} />);
    const facebook = screen.getByRole("link", { name: "Share on Facebook" });
    expect(facebook.getAttribute("href")).toMatch(/^https:\/\/www\.facebook\.com/);
    expect(facebook.getAttribute("target")).toBe("_blank");
    expect(facebook.getAttribute("rel")).toBe("noopener noreferrer");
    for (const name of ["Share by email", "Share by SMS"]) {
      const link = screen.getByRole("link", { name });
      expect(link.getAttribute("target")).toBeNull();
    }
    expect(screen.getByRole("link", { name: "Share by email" }).getAttribute("href")).toMatch(/^mailto:/);
    expect(screen.getByRole("link", { name: "Share by SMS" }).getAttribute("href")).toMatch(/^sms:/);
  });

  it("limits the list to the networks asked for, and shows Copy link only with JavaScript", () => {
    render(<ShareButtons {...data} networks={["twitter", "email"]} />);
    expect(screen.getAllByRole("link")).toHaveLength(2);
    expect(screen.queryByText(/More ways to share/)).toBeNull();
    expect(screen.getByRole("button", { name: "Copy link" })).toBeTruthy();
    cleanup();

    const withoutJavaScript = within(serverRendered(<ShareButtons {...data} />));
    expect(withoutJavaScript.queryByRole("button", { name: "Copy link" })).toBeNull();
    expect(withoutJavaScript.getByText(/More ways to share/)).toBeTruthy();
  });
});
