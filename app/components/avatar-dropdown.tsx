import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Link } from "react-router";
import { Avatar, AVATAR_TRIGGER_CLASS, type AvatarMenuProps } from "./avatar";

/**
 * The avatar menu itself: Account, Admin Area (admins, inside the member area only) and Logout. Radix gives
 * keyboard navigation, Escape and click-outside; Logout submits the plain form AvatarMenu renders beside it.
 * Loaded after hydration (see AvatarMenu), so Radix is not part of any page's first load.
 */
export default function AvatarDropdown({ user, showAdminArea }: AvatarMenuProps) {
  const itemClass =
    "block w-full cursor-pointer rounded px-3 py-2 text-left text-sm text-stone-800 outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={AVATAR_TRIGGER_CLASS} aria-label={`Account menu for ${user.fullname}`}>
        <Avatar name={user.fullname} src={user.avatar_img} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className="z-50 min-w-56 rounded-lg border border-stone-200 bg-white p-1 shadow-lg">
          <div className="px-3 py-2">
            <p className="text-sm font-semibold">{user.fullname}</p>
            <p className="truncate text-xs text-stone-500">{user.email}</p>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to={`/member/${user.id}/profile`}>Account</Link>
          </DropdownMenu.Item>
          {showAdminArea ? (
            <DropdownMenu.Item asChild className={itemClass}>
              <Link to="/admin/dashboard">Admin Area</Link>
            </DropdownMenu.Item>
          ) : null}
          {/* Radix unmounts the item while the click is handled, so the form is submitted from onSelect. */}
          <DropdownMenu.Item className={itemClass} onSelect={() => (document.getElementById("avatar-logout") as HTMLFormElement | null)?.requestSubmit()}>
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
