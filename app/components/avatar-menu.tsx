import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Link } from "react-router";

export function Avatar({ name, src, size = 32 }: { name: string; src: string | null; size?: number }) {
  const initials = name
    .split(/\s+/)
    .map((part) => part[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return src ? (
    <img src={src} alt="" width={size} height={size} className="rounded-full object-cover" style={{ width: size, height: size }} />
  ) : (
    <span
      aria-hidden="true"
      className="inline-flex items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-900"
      style={{ width: size, height: size, fontSize: Math.max(12, Math.round(size * 0.36)) }}
    >
      {initials}
    </span>
  );
}

/**
 * Account, Admin Area (admins, inside the member area only) and Logout. Radix gives keyboard
 * navigation, Escape and click-outside; Logout submits the plain form rendered beside the menu.
 */
export function AvatarMenu({
  user,
  showAdminArea,
}: {
  user: { id: number; fullname: string; email: string; avatar_img: string | null };
  showAdminArea: boolean;
}) {
  const itemClass =
    "block w-full cursor-pointer rounded px-3 py-2 text-left text-sm text-stone-800 outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";
  return (
    <>
      <form id="avatar-logout" method="post" action="/logout" className="hidden" />
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          className="flex items-center gap-2 rounded-full p-0.5 hover:ring-2 hover:ring-brand-100"
          aria-label={`Account menu for ${user.fullname}`}
        >
          <Avatar name={user.fullname} src={user.avatar_img} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={8}
            className="z-50 min-w-56 rounded-lg border border-stone-200 bg-white p-1 shadow-lg"
          >
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
            <DropdownMenu.Item
              className={itemClass}
              onSelect={() => (document.getElementById("avatar-logout") as HTMLFormElement | null)?.requestSubmit()}
            >
              Logout
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </>
  );
}
