export type MenuItem = { label: string; to: string } | { label: string; logout: true };

export interface MenuGroup {
  heading: string;
  items: MenuItem[];
}
