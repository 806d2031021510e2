/** A member's picture, or their initials, and the pieces the account menu and its dropdown share. */
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
