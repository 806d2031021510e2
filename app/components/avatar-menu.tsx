import { lazy, Suspense } from "react";
import { Avatar, AVATAR_TRIGGER_CLASS, type AvatarMenuProps } from "./avatar";
import { useHydrated } from "./hydrated";

const AvatarDropdown = lazy(() => import("./avatar-dropdown"));

/**
 * The header's account menu. The dropdown (Radix) loads once the page has hydrated; until then the same
 * avatar stands in as a disabled button, so the header does not move and nothing is clicked in vain.
 */
export function AvatarMenu(props: AvatarMenuProps) {
  const hydrated = useHydrated();
  const standIn = (
    <button type="button" disabled className={AVATAR_TRIGGER_CLASS} aria-label={`Account menu for ${props.user.fullname}`}>
      <Avatar name={props.user.fullname} src={props.user.avatar_img} />
    </button>
  );
  return (
    <>
      <form id="avatar-logout" method="post" action="/logout" className="hidden" />
      {hydrated ? (
        <Suspense fallback={standIn}>
          <AvatarDropdown {...props} />
        </Suspense>
      ) : (
        standIn
      )}
    </>
  );
}
