import { useEffect, useRef, useState, type MouseEvent } from "react";
import { useHydrated } from "~/components/hydrated";
import { SHARE_NETWORK_NAMES, SHARE_NETWORKS, shareUrl, type ShareData, type ShareNetworkName } from "./share-networks";
import { openSharePopup, SHARE_POPUP_HEIGHT, SHARE_POPUP_WIDTH, type HostWindow, type SharePopupHandle } from "./share-popup";

/** Shown first; the others sit behind "More ways to share" so the page stays short. */
const FEATURED: ShareNetworkName[] = ["facebook", "twitter", "linkedin", "whatsapp", "reddit", "email", "sms"];

export interface ShareButtonsProps extends ShareData {
  /** Which networks, in order; every network by default. */
  networks?: readonly ShareNetworkName[];
  /** Popup size; 626x436 by default. */
  width?: number;
  height?: number;
  /** Called when the user closes a share popup. */
  onClose?: (network: ShareNetworkName) => void;
  heading?: string;
}

export function shareLabel(network: ShareNetworkName): string {
  if (network === "email") return "Share by email";
  if (network === "sms") return "Share by SMS";
  return `Share on ${SHARE_NETWORKS[network].label}`;
}

const buttonClass =
  "inline-flex items-center rounded-full border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 shadow-sm hover:border-brand-700 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700";

/**
 * Share links: plain anchors, so they work without JavaScript (a new tab, or the device's mail and
 * message apps); with JavaScript the web networks open in a centred popup instead.
 */
export function ShareButtons({
  networks = SHARE_NETWORK_NAMES,
  width = SHARE_POPUP_WIDTH,
  height = SHARE_POPUP_HEIGHT,
  onClose,
  heading = "Share",
  ...data
}: ShareButtonsProps) {
  const hydrated = useHydrated();
  const popup = useRef<SharePopupHandle | null>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  // Stop watching a popup when the page goes away (the window itself stays with the user).
  useEffect(() => () => popup.current?.stop(), []);

  function open(event: MouseEvent<HTMLAnchorElement>, network: ShareNetworkName) {
    if (SHARE_NETWORKS[network].open !== "popup") return;
    // Let modified clicks (new tab, new window) do what the user asked for.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    popup.current?.stop();
    popup.current = openSharePopup(window as unknown as HostWindow, event.currentTarget.href, {
      name: `share-${network}`,
      width,
      height,
      onClose: () => onClose?.(network),
    });
    // A blocked popup: fall back to the plain link in a new tab.
    if (!popup.current.window) window.open(event.currentTarget.href, "_blank", "noopener");
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(data.url);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }

  const link = (network: ShareNetworkName) => {
    const definition = SHARE_NETWORKS[network];
    const popupLink = definition.open === "popup";
    return (
      <li key={network}>
        <a
          href={shareUrl(network, data)}
          aria-label={shareLabel(network)}
          data-network={network}
          target={popupLink ? "_blank" : undefined}
          rel={popupLink ? "noopener noreferrer" : undefined}
          onClick={(event) => open(event, network)}
          className={buttonClass}
        >
          {definition.label}
        </a>
      </li>
    );
  };

  const featured = networks.filter((n) => FEATURED.includes(n));
  const others = networks.filter((n) => !FEATURED.includes(n));
  return (
    <section aria-labelledby="share-heading" className="space-y-3">
      <h2 id="share-heading" className="text-base font-semibold text-stone-900">
        {heading}
      </h2>
      <ul className="flex flex-wrap gap-2">
        {featured.map(link)}
        {hydrated ? (
          <li>
            <button type="button" onClick={copy} className={buttonClass}>
              Copy link
            </button>
          </li>
        ) : null}
      </ul>
      <p role="status" className="text-sm text-stone-600 empty:hidden">
        {copied === "yes" ? "The link is copied." : copied === "failed" ? `Copying was refused; the address is ${data.url}` : ""}
      </p>
      {others.length ? (
        <details className="group">
          <summary className="cursor-pointer text-sm font-medium text-brand-800 underline-offset-2 hover:underline">
            More ways to share ({others.length})
          </summary>
          <ul className="mt-3 flex flex-wrap gap-2">{others.map(link)}</ul>
        </details>
      ) : null}
    </section>
  );
}
