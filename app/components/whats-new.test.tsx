import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { WhatsNew, WhatsNewDialog } from "./whats-new";

const version = { id: 7, name: "2.4 “Encore”", content: "<h2>New</h2><ul><li>Faster uploads</li></ul>" };

describe("<WhatsNew>", () => {
  it("renders nothing on the server (it opens after hydration; pages without JavaScript are unchanged)", () => {
    expect(renderToString(<WhatsNew whatsNew={{ version, seen: false }} live />)).toBe("");
    expect(renderToString(<WhatsNew whatsNew={null} />)).toBe("");
  });

  it("is a modal dialog labelled by the version name, with the notes and two ways to close", () => {
    const html = renderToStaticMarkup(<WhatsNewDialog version={version} onClose={() => {}} />);
    const labelledBy = /aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(html).toMatch(/^<dialog role="dialog" aria-modal="true"/);
    expect(labelledBy).toBeTruthy();
    expect(html).toContain(`<h2 id="${labelledBy}" class="`);
    expect(html).toContain(">2.4 “Encore”</h2>");
    expect(html).toContain(version.content);
    expect(html).toContain('<span class="sr-only">Close</span>');
    expect(html).toContain(">Got it</button>");
  });
});
