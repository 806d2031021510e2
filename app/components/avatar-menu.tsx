import { lazy, Suspense } from "react";
import { useHydrated } from "./hydrated";

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

export interface AvatarMenuProps {
  user: { id: number; fullname: string; email: string; avatar_img: string | null };
  showAdminArea: boolean;
}

export const AVATAR_TRIGGER_CLASS = "flex items-center gap-2 rounded-full p-0.5 hover:ring-2 hover:ring-brand-100";

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
