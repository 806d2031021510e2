// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WhatsNew, WhatsNewDialog } from "./whats-new";

const version = { id: 7, name: "2.4 “Encore”", content: "<h2>New</h2><ul><li>Faster uploads</li></ul>" };

afterEach(cleanup);

describe("<WhatsNew>", () => {
  it("renders nothing on the server (it opens after hydration; pages without JavaScript are unchanged)", () => {
    expect(renderToString(<WhatsNew whatsNew={{ version, seen: false }} live />)).toBe("");
    expect(renderToString(<WhatsNew whatsNew={null} />)).toBe("");
  });

  it("is a modal dialog labelled by the version name, with the notes and two ways to close", () => {
    const onClose = vi.fn();
    render(<WhatsNewDialog version={version} onClose={onClose} />);
    const dialog = screen.getByRole("dialog", { name: "2.4 “Encore”", hidden: true });
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    const notes = within(dialog);
    expect(notes.getByRole("heading", { name: "New", hidden: true })).toBeTruthy();
    expect(notes.getByText("Faster uploads")).toBeTruthy();
    expect(notes.getByRole("button", { name: "Close", hidden: true })).toBeTruthy();

    fireEvent.click(notes.getByRole("button", { name: "Got it", hidden: true }));
    expect(onClose).toHaveBeenCalled();
  });
});
